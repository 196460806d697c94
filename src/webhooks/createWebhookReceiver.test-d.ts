/** The receiver's types: handlers narrowed per type, unknown types refused, answers typed. */
import { createServer } from "node:http";
import { describe, expectTypeOf, it } from "vitest";
import type { EventContent } from "../events/index.js";
import {
  createWebhookReceiver,
  createWebhookReplayGuard,
  type SafeVerifyWebhookResult,
  safeVerifyWebhookRequest,
  type WebhookClaim,
  type WebhookContext,
  type WebhookErrorContext,
  type WebhookPayload,
  type WebhookReceipt,
  type WebhookStatus,
  type WebhookVerificationError,
  type WebhookVerificationErrorKind,
} from "./index.js";

declare const request: Request;

describe("createWebhookReceiver types", () => {
  it("on[type] gets the payload of that type, narrowed, and the context", () => {
    createWebhookReceiver({
      secret: "s",
      on: {
        "s.message.text": (payload, context) => {
          expectTypeOf(payload.type).toEqualTypeOf<"s.message.text">();
          expectTypeOf(payload.content).toEqualTypeOf<EventContent<"s.message.text">>();
          expectTypeOf(payload.content.body).toEqualTypeOf<string>();
          expectTypeOf(context).toEqualTypeOf<WebhookContext>();
          expectTypeOf(context.deliveryId).toEqualTypeOf<string | undefined>();
          expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        },
        "s.room.create": async (payload) => {
          expectTypeOf(payload.content.creatorId).toEqualTypeOf<string>();
        },
      },
      onAny: (payload) => {
        expectTypeOf(payload).toEqualTypeOf<WebhookPayload>();
      },
      onError: (error, context) => {
        expectTypeOf(error).toEqualTypeOf<WebhookVerificationError>();
        expectTypeOf(context).toEqualTypeOf<WebhookErrorContext>();
        expectTypeOf(context.payload).toEqualTypeOf<WebhookPayload | undefined>();
      },
    });
  });

  it("refuses an unknown type, a handler of the wrong type and a missing secret", () => {
    createWebhookReceiver({
      secret: "s",
      // @ts-expect-error not a webhook type
      on: { "s.message.txt": () => {} },
    });
    createWebhookReceiver({
      secret: "s",
      on: {
        // @ts-expect-error s.room.close has no body in its content
        "s.room.close": (payload: { content: { body: string } }) => payload.content.body,
      },
    });
    // @ts-expect-error the secret is required
    createWebhookReceiver({ on: {} });
    createWebhookReceiver({ secret: ["new", new Uint8Array(32)] });
  });

  it("answers with typed statuses, through every entry point", async () => {
    const receiver = createWebhookReceiver({ secret: "s" });
    const receipt = await receiver.receive({ body: "{}", headers: { "service-timestamp": "t" } });
    expectTypeOf(receipt).toEqualTypeOf<WebhookReceipt>();
    expectTypeOf(receipt.status).toEqualTypeOf<WebhookStatus>();
    expectTypeOf(receipt.status).toEqualTypeOf<204 | 401 | 408 | 409 | 413 | 422 | 500 | 503>();
    expectTypeOf(receipt.error).toEqualTypeOf<WebhookVerificationError | undefined>();
    expectTypeOf(receiver.fetch).toEqualTypeOf<(request: Request) => Promise<Response>>();
    // @ts-expect-error a parsed object is not a body
    await receiver.receive({ body: { type: "s.room.close" }, headers: {} });
    // The Node listener fits node:http as it is.
    createServer(receiver.node);
    await receiver.close();
  });

  it("error.status and error.kind read without a guard on a failed verification", async () => {
    const result: SafeVerifyWebhookResult = await safeVerifyWebhookRequest(request, { secret: "s" });
    if (!result.success) {
      expectTypeOf(result.error.status).toEqualTypeOf<Exclude<WebhookStatus, 204>>();
      expectTypeOf(result.error.kind).toEqualTypeOf<WebhookVerificationErrorKind>();
    }
    const receipt = await createWebhookReceiver({ secret: "s" }).fetch(request);
    expectTypeOf(receipt.status).toEqualTypeOf<number>();
  });

  it("a guard's claim narrows on status", async () => {
    const claim = await createWebhookReplayGuard().claim({ signature: "", expiresAt: new Date() }, "id");
    expectTypeOf(claim).toEqualTypeOf<WebhookClaim>();
    if (claim.status === "claimed") {
      expectTypeOf(claim.complete).returns.resolves.toEqualTypeOf<boolean>();
      expectTypeOf(claim.signal).toEqualTypeOf<AbortSignal>();
    }
    if (claim.status === "in-progress") expectTypeOf(claim.retryAfterMs).toEqualTypeOf<number>();
  });
});
