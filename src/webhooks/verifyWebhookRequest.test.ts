import { describe, expect, it } from "vitest";
import {
  createWebhookRequest,
  createWebhookSigner,
  createWebhookVerifier,
  signWebhook,
  verifyWebhookRequest,
} from "./index.js";

const secret = "whsec_fetch";
const payload = { type: "s.room.create", version: 2, content: { creatorId: "user-7" } };

describe("Fetch API helpers", () => {
  it("createWebhookRequest builds a signed POST that verifyWebhookRequest accepts", async () => {
    const request = await createWebhookRequest("https://receiver.example/hooks", { payload, secret });
    expect(request.method).toBe("POST");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(request.headers.get("service-signature")).toMatch(/^[0-9a-f]{128}$/);
    expect(await verifyWebhookRequest(request, { secret })).toEqual(payload);
  });

  it("reads the raw bytes: a request built from the signed body verifies", async () => {
    const { body, headers } = await signWebhook({
      payload: '{"type":"s.room.close","version":2,"content":{}}\r\n',
      secret,
    });
    const request = new Request("http://localhost/hooks", {
      method: "POST",
      headers,
      body: new TextEncoder().encode(body),
    });
    expect(await verifyWebhookRequest(request, { secret })).toEqual({
      type: "s.room.close",
      version: 2,
      content: {},
    });
  });

  it("says so when the body was already read", async () => {
    const request = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    await request.json();
    await expect(verifyWebhookRequest(request, { secret })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_BODY_USED",
    });
  });

  it("rejects a tampered request with the right code", async () => {
    const request = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    const headers = new Headers(request.headers);
    headers.set("service-timestamp", new Date(Date.now() - 3_600_000).toISOString());
    const replay = new Request(request, { headers });
    await expect(verifyWebhookRequest(replay, { secret })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    });
    const other = await createWebhookRequest("http://localhost/hooks", { payload, secret: "whsec_else" });
    await expect(verifyWebhookRequest(other, { secret })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_SIGNATURE_MISMATCH",
    });
  });

  it("the signer and the verifier work on requests too", async () => {
    const signer = createWebhookSigner({ secret });
    const verifier = createWebhookVerifier({ secret });
    const request = await signer.createRequest(new URL("http://localhost/hooks"), { payload });
    expect(await verifier.verifyRequest(request)).toEqual(payload);
    const late = await signer.createRequest("http://localhost/hooks", {
      payload,
      timestamp: Date.now() - 400_000,
    });
    await expect(verifier.verifyRequest(late)).rejects.toMatchObject({
      code: "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    });
    const lateAgain = await signer.createRequest("http://localhost/hooks", {
      payload,
      timestamp: Date.now() - 400_000,
    });
    expect(await verifier.verifyRequest(lateAgain, { now: Date.now() - 400_000 })).toEqual(payload);
  });
});
