/**
 * Webhook verification throughput for a 1 KB payload, one verification at a time, against raw
 * `crypto.subtle.verify` with a cached key over the same bytes (the floor for this design) and
 * against `node:crypto` `createHmac` with `timingSafeEqual`, in the same run.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createWebhookVerifier, signWebhook, verifyWebhook } from "../src/webhooks/index.js";
import { type CaseResult, runAsyncCase } from "./harness.js";

export async function webhookCases(): Promise<CaseResult[]> {
  const secret = "whsec_bench";
  const payload = {
    type: "s.message.text",
    version: 2,
    content: { body: "Grüße aus Köln 👋 ".repeat(40) },
    roomId: "room-42",
    senderId: "user-7",
  };
  const signed = await signWebhook({ payload, secret });
  const size = new TextEncoder().encode(signed.body).length;
  if (size < 900 || size > 1200) throw new Error(`bench payload is ${size} bytes, not about 1 KB`);
  const bodyBytes = Buffer.from(signed.body);
  const timestamp = signed.headers["service-timestamp"];
  const signatureHex = signed.headers["service-signature"];
  const headers = { ...signed.headers };
  const now = Date.parse(timestamp);

  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-512" },
    false,
    ["verify"],
  );
  const data = Buffer.concat([Buffer.from(`${timestamp}:`), bodyBytes]);
  const mac = Buffer.from(signatureHex, "hex");
  const verifier = createWebhookVerifier({ secret, now });

  const check = (ok: unknown) => {
    if (!ok) throw new Error("a contender failed to verify");
  };
  const result = await runAsyncCase(`Webhook verification, ${size}-byte body, one at a time`, [
    {
      name: "verifyWebhook (one-shot, cached key)",
      run: async () => check(await verifyWebhook({ body: bodyBytes, headers, secret, now })),
    },
    {
      name: "createWebhookVerifier().verify",
      run: async () => check(await verifier.verify({ body: bodyBytes, headers })),
    },
    {
      name: "node:crypto createHmac + timingSafeEqual",
      run: async () => check(timingSafeEqual(createHmac("sha512", secret).update(data).digest(), mac)),
    },
    {
      name: "raw crypto.subtle.verify, cached key (baseline)",
      run: async () => check(await crypto.subtle.verify("HMAC", key, mac, data)),
    },
  ]);
  return [result];
}
