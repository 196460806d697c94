/**
 * The webhook surfaces against a hostile caller, store or environment: every answer stays within
 * its status table, and a polluted Object.prototype never widens what verifies.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { IdempotencyStore } from "../server/index.js";
import {
  createWebhookReceiver,
  createWebhookReplayGuard,
  createWebhookVerifier,
  safeVerifyWebhook,
  safeVerifyWebhookRequest,
  safeVerifyWebhookSignature,
  signWebhook,
  WebhookVerificationError,
} from "./index.js";

const secret = "whsec_hostile_test";
const payload = { type: "s.room.close", version: 2, content: {} } as const;

/** A store whose `claim` answers what no store should. */
function storeClaiming(answer: unknown): IdempotencyStore {
  return {
    claim: async () => answer as never,
    extend: async () => true,
    complete: async () => true,
    release: async () => true,
    close: async () => {},
  };
}

describe("a store that answers nonsense", () => {
  it.each([
    ["undefined", undefined],
    ["null", null],
    ["an unknown status", { status: "maybe" }],
  ])("is unavailable (503), never a 2xx nor its own message, when claim gives %s", async (_, answer) => {
    let ran = 0;
    const errors: unknown[] = [];
    const receiver = createWebhookReceiver({
      secret,
      store: storeClaiming(answer),
      onAny: () => {
        ran++;
      },
      onError: (error) => {
        errors.push(error);
      },
    });
    const signed = await signWebhook({ payload, secret });
    const receipt = await receiver.receive(signed);
    await receiver.close();
    expect(receipt.status).toBe(503);
    expect(JSON.parse(receipt.body)).toMatchObject({ code: "ERR_WEBHOOK_STORE_UNAVAILABLE" });
    expect(receipt.body).not.toMatch(/Cannot read|undefined|null/);
    expect(ran).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WebhookVerificationError);
  });

  it("the guard rejects with a WebhookVerificationError, as documented", async () => {
    const guard = createWebhookReplayGuard({ store: storeClaiming(undefined) });
    const signature = "ab".repeat(64);
    const claim = guard.claim({ signature, expiresAt: new Date(Date.now() + 60_000) }, "delivery-1");
    await expect(claim).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(claim).rejects.toMatchObject({ code: "ERR_WEBHOOK_STORE_UNAVAILABLE" });
    await guard.close();
  });
});

describe("a polluted Object.prototype", () => {
  const polluted = Object.prototype as Record<string, unknown>;
  afterEach(() => {
    for (const name of ["toleranceMs", "now", "secret", "maxBodyBytes", "timeoutMs", "body", "headers"])
      delete polluted[name];
  });
  /** A webhook signed 20 days ago: outside any tolerance the caller set (the default, 5 minutes). */
  const stale = () =>
    signWebhook({ payload, secret, timestamp: new Date(Date.now() - 20 * 86_400_000) } as never);

  it("does not widen the time window of verifyWebhookSignature, verifyWebhook or a verifier", async () => {
    const { body, headers } = await stale();
    polluted.toleranceMs = 2_000_000_000;
    const results = [
      await safeVerifyWebhookSignature({ body, headers, secret }),
      await safeVerifyWebhook({ body, headers, secret }),
      await createWebhookVerifier({ secret }).safeVerify({ body, headers }),
    ];
    for (const result of results) expect(result.error?.code).toBe("ERR_WEBHOOK_TIMESTAMP_TOO_OLD");
  });

  it("does not move the clock back", async () => {
    const { body, headers } = await stale();
    polluted.now = Date.now() - 20 * 86_400_000;
    const result = await safeVerifyWebhookSignature({ body, headers, secret });
    expect(result.error?.code).toBe("ERR_WEBHOOK_TIMESTAMP_TOO_OLD");
  });

  it("does not choose the secret of a call that passed none", async () => {
    const { body, headers } = await signWebhook({ payload, secret: "attacker-secret" });
    polluted.secret = "attacker-secret";
    const result = await safeVerifyWebhookSignature({ body, headers } as never);
    expect(result.success).toBe(false);
  });

  it("does not change the limits of verifyWebhookRequest", async () => {
    const { body, headers } = await signWebhook({ payload, secret });
    polluted.maxBodyBytes = 0;
    const request = new Request("http://127.0.0.1/hooks", { method: "POST", body, headers });
    const result = await safeVerifyWebhookRequest(request, { secret });
    expect(result.error?.code).not.toBe("ERR_WEBHOOK_BODY_TOO_LARGE");
  });

  it("does not widen the time window of a receiver", async () => {
    const { body, headers } = await stale();
    polluted.toleranceMs = 2_000_000_000;
    const receiver = createWebhookReceiver({ secret });
    const receipt = await receiver.receive({ body, headers });
    await receiver.close();
    expect(receipt.error?.code).toBe("ERR_WEBHOOK_TIMESTAMP_TOO_OLD");
  });
});
