import { describe, expect, it } from "vitest";
import {
  createWebhookVerifier,
  safeVerifyWebhook,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
} from "./index.js";

const T0 = Date.parse("2026-11-22T18:00:00Z");
const secret = "s";
const full = {
  type: "s.message.text",
  version: 2,
  content: { body: "Hello" },
  roomId: "room-42",
  senderId: "user-7",
  recipients: [{ id: "user-9" }, { id: "user-10", externalId: "crm-10" }],
};
const signed = await signWebhook({ payload: full, secret, timestamp: T0, encoding: "hex" });

describe("verifyWebhook and safeVerifyWebhook: verified and validated", () => {
  it("resolve to the typed payload, the time and the normalised signature", async () => {
    const payload = await verifyWebhook({ ...signed, secret, now: T0 });
    expect(payload).toEqual(full);
    expect(payload.type === "s.message.text" && payload.content.body).toBe("Hello");
    const result = await safeVerifyWebhook({ ...signed, secret, now: T0 });
    expect(result).toEqual({
      success: true,
      data: full,
      timestamp: new Date(T0),
      // The end of the window: the verifier's tolerance (300 s) after the signed time.
      expiresAt: new Date(T0 + 300_000),
      signature: signed.headers["service-signature"],
    });
  });

  it("fail with a verification error, or with a payload error when authentic but wrong", async () => {
    const wrong = await signWebhook({ payload: { ...full, version: 3 }, secret, timestamp: T0 });
    const wrongSecret = await safeVerifyWebhook({ ...wrong, secret: "t", now: T0 });
    expect(wrongSecret.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
    const wrongPayload = await safeVerifyWebhook({ ...wrong, secret, now: T0 });
    // One error class on every failure: the status and the kind read without a guard.
    expect(wrongPayload.error).toMatchObject({
      name: "WebhookVerificationError",
      code: "ERR_WEBHOOK_PAYLOAD_INVALID",
      kind: "invalid",
      status: 422,
    });
    expect(wrongPayload.error?.issues[0]).toMatchObject({ pointer: "/version" });
    expect((wrongPayload.error?.cause as { code?: string } | undefined)?.code).toBe(
      "ERR_INVALID_WEBHOOK_PAYLOAD",
    );
    await expect(verifyWebhook({ ...wrong, secret, now: T0 })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_PAYLOAD_INVALID",
      status: 422,
    });
  });

  it("the bound verifier validates too, on every method", async () => {
    const verifier = createWebhookVerifier({ secret, now: T0 });
    expect(await verifier.verify(signed)).toEqual(full);
    const result = await verifier.safeVerify(signed);
    expect(result.success && result.data.type).toBe("s.message.text");
    const wrong = await signWebhook({ payload: { ...full, type: "s.room.typing" }, secret, timestamp: T0 });
    expect((await verifier.safeVerify(wrong)).error?.code).toBe("ERR_WEBHOOK_PAYLOAD_INVALID");
  });
});

describe("errors that name the fix", () => {
  it("positional arguments, as other libraries take them, say to pass one options object", async () => {
    const positional = verifyWebhook as unknown as (...args: unknown[]) => Promise<unknown>;
    for (const body of [signed.body, Buffer.from(signed.body), JSON.parse(signed.body)]) {
      const error = await positional(body, signed.headers, secret).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({
        code: "ERR_WEBHOOK_INVALID_INPUT",
        kind: "configuration",
        message: "pass one options object: verifyWebhook({ body, headers, secret })",
      });
    }
  });

  it("a missing secret (an unset environment variable) is SECRET_INVALID", async () => {
    const result = await safeVerifyWebhook({ ...signed, secret: process.env.UNSET_WEBHOOK_SECRET! });
    expect(result.error?.code).toBe("ERR_WEBHOOK_SECRET_INVALID");
  });

  it("a body parser mismatch hints at express.raw", async () => {
    for (const body of [undefined, {}]) {
      const result = await safeVerifyWebhook({
        ...signed,
        body,
        secret,
        now: T0,
      } as unknown as VerifyWebhookOptions);
      expect(result.error).toMatchObject({
        code: "ERR_WEBHOOK_INVALID_INPUT",
        kind: "configuration",
        message:
          'the raw body is missing: with Express use express.raw({ type: "*/*" }) on this route; with NestJS create the app with { rawBody: true }',
      });
    }
  });
});
