/** Every way in resolves to a payload that narrows `content` on `type`. */
import { describe, expectTypeOf, it } from "vitest";
import type { EventContent } from "../events/index.js";
import {
  createWebhookVerifier,
  type SafeVerifyWebhookResult,
  safeVerifyWebhook,
  safeVerifyWebhookRequest,
  safeVerifyWebhookSignature,
  verifyWebhook,
  verifyWebhookRequest,
  verifyWebhookSignature,
  type WebhookPayload,
  type WebhookVerificationError,
} from "../index.js";

declare const body: string;
declare const headers: Headers;
declare const request: Request;
const verifier = createWebhookVerifier({ secret: "s" });

function narrows(payload: WebhookPayload): void {
  if (payload.type === "s.message.text") {
    expectTypeOf(payload.content).toEqualTypeOf<EventContent<"s.message.text">>();
    expectTypeOf(payload.content.body).toEqualTypeOf<string>();
  }
  if (payload.type === "s.room.create") expectTypeOf(payload.content.creatorId).toEqualTypeOf<string>();
  if (payload.type === "s.message.media")
    expectTypeOf(payload.content).toEqualTypeOf<EventContent<"s.message.media">>();
  expectTypeOf(payload.version).toEqualTypeOf<2>();
}

function narrowsResult(result: SafeVerifyWebhookResult): void {
  if (result.success) {
    narrows(result.data);
    expectTypeOf(result.signature).toEqualTypeOf<string>();
    expectTypeOf(result.timestamp).toEqualTypeOf<Date>();
  } else {
    expectTypeOf(result.error).toEqualTypeOf<WebhookVerificationError>();
    // Read without a guard: the status to answer, and who must act.
    expectTypeOf(result.error.status).toEqualTypeOf<401 | 408 | 409 | 413 | 422 | 500 | 503>();
    expectTypeOf(result.error.kind).toEqualTypeOf<
      "authentication" | "invalid" | "handler" | "unavailable" | "configuration"
    >();
  }
}

describe("typed payloads on every path", () => {
  it("one-shot body", async () => {
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<WebhookPayload>();
    narrows(await verifyWebhook({ body, headers, secret: "s" }));
    narrowsResult(await safeVerifyWebhook({ body, headers, secret: "s" }));
  });

  it("Fetch Request", async () => {
    expectTypeOf(verifyWebhookRequest).returns.resolves.toEqualTypeOf<WebhookPayload>();
    narrows(await verifyWebhookRequest(request, { secret: "s", maxBodyBytes: 65_536 }));
    narrowsResult(
      await safeVerifyWebhookRequest(request, { secret: "s", signal: AbortSignal.timeout(1000) }),
    );
  });

  it("bound verifier", async () => {
    narrows(await verifier.verify({ body, headers }));
    narrowsResult(await verifier.safeVerify({ body, headers }));
    narrows(await verifier.verifyRequest(request));
    narrowsResult(await verifier.safeVerifyRequest(request, { now: Date.now() }));
  });

  it("the byte-level verifier is unknown on purpose", async () => {
    const verified = await verifyWebhookSignature({ body, headers, secret: "s" });
    expectTypeOf(verified.payload).toBeUnknown();
    expectTypeOf(verified.signature).toEqualTypeOf<string>();
    const result = await safeVerifyWebhookSignature({ body, headers, secret: "s" });
    if (!result.success) expectTypeOf(result.error).toEqualTypeOf<WebhookVerificationError>();
  });

  it("bodies: any bytes, never a parsed object", () => {
    verifyWebhook({ body: new DataView(new ArrayBuffer(2)), headers, secret: "s" });
    verifyWebhook({ body: new SharedArrayBuffer(2), headers, secret: new Uint16Array(2) });
    // @ts-expect-error a parsed object is not a body
    verifyWebhook({ body: { type: "s.room.close" }, headers, secret: "s" });
    // @ts-expect-error positional arguments
    verifyWebhook(body, headers, "s");
    // @ts-expect-error the options are an object
    verifyWebhookRequest(request, "s");
  });
});
