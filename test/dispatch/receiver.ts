/**
 * A webhook receiver on 127.0.0.1 for the dispatch suites: it records every request with its raw
 * body and checks it with the library's own verifier, then answers as the test says. Every body
 * must also be valid under the shipped JSON Schema of the webhook payload (`webhook-payload.json`,
 * under Ajv): `close()` fails the test that sent one that is not.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type SafeVerifyWebhookResult, safeVerifyWebhook } from "../../src/webhooks/index.js";
import { createAjv, readShippedSchema } from "../support/ajv.js";

const payloadSchema = createAjv().compile(readShippedSchema("webhook-payload.json"));

/** Why a body the dispatcher sent is not a payload the shipped JSON Schema accepts, or `undefined`. */
function offSchema(body: Buffer): string | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    return "not JSON";
  }
  return payloadSchema(payload) ? undefined : JSON.stringify(payloadSchema.errors?.slice(0, 3));
}

export interface ReceivedRequest {
  readonly body: Buffer;
  readonly headers: IncomingHttpHeaders;
  /** When it arrived (Date.now()). */
  readonly at: number;
  /** The library's verdict with the receiver's secrets. */
  readonly verified: SafeVerifyWebhookResult;
}

/** How to answer: a status and headers, or never (`hang`). */
export type Answer =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | "hang";

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Waits until `count` requests have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(
  secrets: readonly string[],
  answer: (request: ReceivedRequest, index: number) => Answer = () => ({ status: 204 }),
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const offSchemaBodies: string[] = [];
  const waiters: (() => void)[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const why = offSchema(body);
    if (why !== undefined) offSchemaBodies.push(`${body.toString("utf8").slice(0, 200)}: ${why}`);
    const verified = await safeVerifyWebhook({ body, headers: request.headers, secret: secrets });
    const received: ReceivedRequest = { body, headers: request.headers, at: Date.now(), verified };
    requests.push(received);
    for (const wake of waiters.splice(0)) wake();
    const reply = answer(received, requests.length - 1);
    if (reply === "hang") {
      hanging.add(response);
      return;
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    response.writeHead(reply.status, reply.headers);
    response.end(reply.status === 204 ? undefined : "ok");
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (offSchemaBodies.length > 0)
        throw new Error(
          `the dispatcher sent payloads that webhook-payload.json refuses: ${offSchemaBodies.join("; ")}`,
        );
    },
  };
}

/** Polls `check` until it returns true, or fails after `timeoutMs`. */
export async function eventually(
  check: () => boolean,
  timeoutMs = 10_000,
  what = "the condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
