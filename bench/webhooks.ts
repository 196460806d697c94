/**
 * Webhook verification for a 1 KB payload, one verification at a time, against what a careful
 * hand-written receiver does per request: read both headers, check the timestamp window, decode the
 * signature, `crypto.subtle.verify` with a cached key, then `JSON.parse` of the decoded text (the
 * baseline). The floor, `crypto.subtle.verify` alone on precomputed bytes, is printed beside it. The byte-level `verifyWebhookSignature` must stay ≥ 0.9x of it; the
 * typed verifiers (which also validate the payload with the schemas) are reported beside it.
 *
 * Then a forged body through the byte-level verifier, which reads bodies of any size: a 5 MB
 * nested body (`[[[…]]]`) with a wrong signature against a 5 MB body that is not JSON. Nothing of
 * an unauthenticated body is parsed, so both cost the HMAC: the time ratio should stay within 2x
 * and memory flat. `tsx bench/webhooks.ts` runs this file alone.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  createWebhookVerifier,
  safeVerifyWebhookSignature,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
} from "../src/webhooks/index.js";
import { type CaseResult, printCase, runAsyncCase } from "./harness.js";

const secret = "whsec_bench";

async function throughput(): Promise<CaseResult> {
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
  const mac = Buffer.from(signed.headers["service-signature"], "base64url");
  const decoder = new TextDecoder();
  const verifier = createWebhookVerifier({ secret, now });

  const check = (ok: unknown) => {
    if (!ok) throw new Error("a contender failed to verify");
  };
  return runAsyncCase(`Webhook verification, ${size}-byte body, one at a time`, [
    {
      name: "verifyWebhookSignature (byte-level, one-shot)",
      run: async () =>
        check((await verifyWebhookSignature({ body: bodyBytes, headers, secret, now })).payload),
    },
    {
      name: "verifyWebhook (typed, validates the payload)",
      run: async () => check(await verifyWebhook({ body: bodyBytes, headers, secret, now })),
    },
    {
      name: "createWebhookVerifier().verify (typed)",
      run: async () => check(await verifier.verify({ body: bodyBytes, headers })),
    },
    {
      name: "node:crypto createHmac + timingSafeEqual + JSON.parse",
      run: async () => {
        check(timingSafeEqual(createHmac("sha512", secret).update(data).digest(), mac));
        check(JSON.parse(decoder.decode(bodyBytes)));
      },
    },
    {
      name: "crypto.subtle.verify alone on precomputed bytes, then JSON.parse (floor)",
      run: async () => {
        check(await crypto.subtle.verify("HMAC", key, mac, data));
        check(JSON.parse(decoder.decode(bodyBytes)));
      },
    },
    {
      // What a careful hand-written receiver does per request: read both headers, check the
      // timestamp window, decode the signature, build `<timestamp>:<body>`, verify with a cached
      // key, and only then parse.
      name: "hand-written: headers, window, decode, crypto.subtle.verify (cached key), then JSON.parse (baseline)",
      run: async () => {
        const sent = headers["service-timestamp"];
        check(Math.abs(now - Date.parse(sent)) <= 300_000);
        const signature = Buffer.from(headers["service-signature"], "base64url");
        const signed = Buffer.concat([Buffer.from(`${sent}:`), bodyBytes]);
        check(await crypto.subtle.verify("HMAC", key, signature, signed));
        check(JSON.parse(decoder.decode(bodyBytes)));
      },
    },
  ]);
}

interface ForgedRun {
  readonly name: string;
  readonly ms: number;
  readonly rssMb: number;
}

/** Median time and peak RSS growth of one forged body through the byte-level verifier. */
async function forged(name: string, body: string, rounds = 9): Promise<ForgedRun> {
  const headers = { "service-timestamp": new Date().toISOString(), "service-signature": "0".repeat(128) };
  const run = async () => {
    const result = await safeVerifyWebhookSignature({ body, headers, secret });
    if (result.error?.code !== "ERR_WEBHOOK_SIGNATURE_MISMATCH")
      throw new Error(`${name}: ${result.error?.code}`);
  };
  await run();
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  times.sort((a, b) => a - b);
  return { name, ms: times[Math.floor(times.length / 2)]!, rssMb: (peak - before) / 2 ** 20 };
}

/** The forged-body case: its two runs and the ratio of their times. */
export async function forgedBodyCase(): Promise<{ nested: ForgedRun; flat: ForgedRun; ratio: number }> {
  const size = 5 * 2 ** 20;
  // Flat strings both (a concatenation is flattened on first use, which would be measured too).
  const flatten = (text: string) => Buffer.from(text, "latin1").toString("latin1");
  const nested = flatten(`${"[".repeat(size / 2)}${"]".repeat(size / 2)}`);
  const flat = flatten("x".repeat(size));
  // Interleaved, so both see the same machine.
  const a = await forged("5 MB nested forged body", nested);
  const b = await forged("5 MB non-JSON forged body", flat);
  const c = await forged("5 MB nested forged body", nested);
  const d = await forged("5 MB non-JSON forged body", flat);
  const pick = (x: ForgedRun, y: ForgedRun) => ({
    ...x,
    ms: Math.min(x.ms, y.ms),
    rssMb: Math.max(x.rssMb, y.rssMb),
  });
  const nestedRun = pick(a, c);
  const flatRun = pick(b, d);
  return { nested: nestedRun, flat: flatRun, ratio: nestedRun.ms / flatRun.ms };
}

export function printForgedBodyCase(result: Awaited<ReturnType<typeof forgedBodyCase>>): void {
  console.log("\nForged 5 MB bodies through verifyWebhookSignature (wrong signature), median of 9");
  for (const run of [result.nested, result.flat]) {
    console.log(
      `  ${run.name.padEnd(28)} ${run.ms.toFixed(1).padStart(8)} ms   RSS +${run.rssMb.toFixed(1)} MB`,
    );
  }
  console.log(`  nested ÷ non-JSON time ratio: ${result.ratio.toFixed(2)} (target ≤ 2.00)`);
}

export async function webhookCases(): Promise<CaseResult[]> {
  return [await throughput()];
}

/** One line for the summary: the byte-level verifier against the baseline, the typed one beside it. */
export function webhookSummary(result: CaseResult): string {
  const [byteLevel, typed, bound] = result.results;
  return `Webhook verify ratio (÷ a hand-written receiver: headers, window, decode, subtle.verify, JSON.parse): verifyWebhookSignature ${byteLevel!.ratio.toFixed(2)} (target ≥ 0.90); typed verifyWebhook ${typed!.ratio.toFixed(2)}, createWebhookVerifier().verify ${bound!.ratio.toFixed(2)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`messaging-events webhook benchmark on Node ${process.versions.node}`);
  const [result] = await webhookCases();
  printCase(result!);
  printForgedBodyCase(await forgedBodyCase());
  console.log(`\n${webhookSummary(result!)}`);
}
