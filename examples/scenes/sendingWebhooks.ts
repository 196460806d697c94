/**
 * The demo's "sending webhooks" scene: `createWebhookDispatcher` with short test retry delays,
 * delivering one event to two loopback receivers: the library's `createWebhookReceiver`, whose
 * handler fails the first time (a database blip) and succeeds on the sender's retry, and a plain
 * server that verifies with `safeVerifyWebhook` and answers 410, and gets disabled.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { safeVerifyWebhook } from "messaging-events";
import {
  createWebhookDispatcher,
  type DeliveryAttempt,
  type EndpointDisabledReason,
  WEBHOOK_ID_HEADER,
} from "messaging-events/dispatch";
import { createWebhookReceiver } from "messaging-events/webhooks";
import type { Expect } from "./Expect.js";

const RETRY_DELAYS_MS = [200, 400] as const;
const SETTLE_LIMIT_MS = 5_000;

interface Received {
  readonly at: number;
  readonly timestamp: string;
  readonly signature: string;
  readonly webhookId: string;
  readonly body: Buffer;
  readonly verdict: string;
  readonly status: number;
}

interface Receiver {
  readonly server: Server;
  readonly url: string;
  readonly received: Received[];
}

const header = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(", ") : (value ?? "");

/** A loopback receiver that verifies each request and answers `answer(attempt number)` when it is authentic. */
async function startReceiver(secret: string, answer: (attempt: number) => number): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const result = await safeVerifyWebhook({ body, headers: req.headers, secret });
      const status = result.success ? answer(received.length + 1) : 401;
      received.push({
        at: Date.now(),
        timestamp: header(req.headers["service-timestamp"]),
        signature: header(req.headers["service-signature"]),
        webhookId: header(req.headers[WEBHOOK_ID_HEADER]),
        body,
        verdict: result.success ? `✓ ${result.data.type}` : `✗ ${result.error.code}`,
        status,
      });
      res.writeHead(status).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

/**
 * The library's receiver on a loopback server: its handler throws the first time it runs, so the
 * first attempt is answered 500 and the sender's retry runs it again. Each request is recorded with
 * what the receiver made of it.
 */
async function startLibraryReceiver(secret: string): Promise<Receiver & { readonly runs: string[] }> {
  const received: Received[] = [];
  const runs: string[] = [];
  // The attempts come one after another: what the receiver made of the latest one.
  let verdict = "?";
  const receiver = createWebhookReceiver({
    secret,
    on: {
      "s.message.text": async (payload) => {
        verdict = `✓ ${payload.type}`;
        runs.push(runs.length === 0 ? "threw (a database blip)" : "succeeded");
        if (runs.length === 1) throw new Error("a database blip");
      },
    },
    onError: (error) => {
      if (error.kind !== "handler") verdict = `✗ ${error.code}`;
    },
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("finish", () => {
      received.push({
        at: Date.now(),
        timestamp: header(req.headers["service-timestamp"]),
        signature: header(req.headers["service-signature"]),
        webhookId: header(req.headers[WEBHOOK_ID_HEADER]),
        body: Buffer.concat(chunks),
        verdict,
        status: res.statusCode,
      });
    });
    receiver.node(req, res);
  });
  server.on("close", () => void receiver.close());
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, runs };
}

async function stop(server: Server): Promise<void> {
  server.close();
  server.closeAllConnections();
  if (server.listening) await once(server, "close");
}

/** Runs the scene, printing each attempt; `expect` records what did not behave as shown. */
export async function sendingWebhooks(expect: Expect): Promise<void> {
  const flaky = await startLibraryReceiver("whsec_flaky_receiver");
  const gone = await startReceiver("whsec_gone_receiver", () => 410);
  const attempts: DeliveryAttempt[] = [];
  const disabled: [string, EndpointDisabledReason][] = [];
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const check = () => {
    const flakyDone = attempts.some((a) => a.endpointId === "flaky" && a.outcome !== "retry");
    const goneDone = attempts.some((a) => a.endpointId === "gone" && a.outcome !== "retry");
    if (flakyDone && goneDone && disabled.length > 0) settle();
  };
  let start = Date.now();
  const dispatcher = createWebhookDispatcher({
    endpoints: [
      { id: "flaky", url: flaky.url, secret: ["whsec_flaky_receiver"] },
      { id: "gone", url: gone.url, secret: ["whsec_gone_receiver"] },
    ],
    retry: { delaysMs: RETRY_DELAYS_MS, jitter: 0 },
    timeoutMs: 2_000,
    // The demo's receivers listen on this machine: loopback is refused unless allowed.
    destinations: { allow: ["127.0.0.1"] },
    onAttempt: (attempt) => {
      attempts.push(attempt);
      check();
    },
    onEndpointDisabled: (endpoint, reason) => {
      disabled.push([endpoint.id, reason]);
      check();
    },
  });

  try {
    console.log(
      `\nSending webhooks: createWebhookDispatcher (retry delays [${RETRY_DELAYS_MS.join(", ")}] ms, no jitter) to two receivers on 127.0.0.1: createWebhookReceiver, and a plain server verifying with safeVerifyWebhook`,
    );
    start = Date.now();
    const result = await dispatcher.dispatch({
      event: { type: "s.message.text", content: { body: "Your order has shipped" } },
      roomId: "room-42",
      senderId: "user-7",
    });
    console.log(
      `  dispatched s.message.text as event ${result.eventId}: ${result.deliveries
        .map((delivery) => `${delivery.endpointId} -> delivery ${delivery.id}`)
        .join(", ")}`,
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      settled,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SETTLE_LIMIT_MS);
      }),
    ]);
    clearTimeout(timer);

    for (const [receiver, label] of [
      [flaky, 'receiver "flaky" (createWebhookReceiver; its handler throws the first time, a database blip)'],
      [gone, 'receiver "gone" (answers 410 Gone)'],
    ] as const) {
      console.log(`\n  ${label}:`);
      console.log(
        `    #  ${"at".padEnd(9)}${"service-timestamp".padEnd(26)}${"service-signature".padEnd(20)}${WEBHOOK_ID_HEADER.padEnd(38)}verified -> answer`,
      );
      receiver.received.forEach((request, index) => {
        console.log(
          `    ${index + 1}  ${`+${request.at - start} ms`.padEnd(9)}${request.timestamp.padEnd(26)}${`${request.signature.slice(0, 16)}…`.padEnd(20)}${request.webhookId.padEnd(38)}${request.verdict} -> ${request.status}`,
        );
      });
    }
    console.log("\n  onAttempt:");
    for (const attempt of attempts) {
      const next =
        attempt.retryAt === undefined ? "" : `, next attempt due at +${attempt.retryAt - start} ms`;
      console.log(
        `    ${attempt.endpointId} #${attempt.attempt}: ${attempt.status ?? "-"} ${attempt.outcome}${
          attempt.reason === undefined ? "" : ` (${attempt.reason})`
        }${attempt.outcome === "retry" ? next : ""}`,
      );
    }

    console.log(`\n  the handler of "flaky" ran ${flaky.runs.length} times: ${flaky.runs.join(", then ")}`);
    for (const [id, reason] of disabled)
      console.log(`  onEndpointDisabled: endpoint "${id}" disabled (${reason})`);

    const [one, two] = flaky.received;
    const flakyId = result.deliveries.find((delivery) => delivery.endpointId === "flaky")?.id;
    const both = one !== undefined && two !== undefined;
    const fresh = both && one.timestamp !== two.timestamp && one.signature !== two.signature;
    const sameId = both && one.webhookId === flakyId && two.webhookId === flakyId;
    const sameBody = both && one.body.equals(two.body);
    const allAuthentic = [...flaky.received, ...gone.received].every((request) =>
      request.verdict.startsWith("✓"),
    );
    const disabledNow = [...dispatcher.disabledEndpoints()];
    console.log(
      `\n  -> ${fresh ? "a new" : "NOT a new"} timestamp and signature on the retry, ${
        sameId && sameBody ? "the same" : "NOT the same"
      } ${WEBHOOK_ID_HEADER} and body bytes; disabled: ${
        disabledNow.map(([id, reason]) => `${id} (${reason})`).join(", ") || "none"
      }`,
    );
    expect(flaky.received.length === 2, 'receiver "flaky" got exactly two attempts');
    expect(
      flaky.received.map((request) => request.status).join() === "500,204",
      "the receiver answered 500 while its handler failed, then 204 once it succeeded",
    );
    expect(
      flaky.runs.join() === "threw (a database blip),succeeded",
      "the handler ran twice and succeeded once",
    );
    expect(gone.received.length === 1, 'receiver "gone" got exactly one attempt');
    expect(allAuthentic, "every request verified");
    expect(fresh, "each attempt has its own timestamp and signature");
    expect(sameId, "both attempts carry the delivery's service-webhook-id");
    expect(sameBody, "both attempts send the same body bytes");
    expect(both && two.at - one.at >= (RETRY_DELAYS_MS[0] * 3) / 4, "the retry waits as retry.delaysMs says");
    expect(
      attempts.some((a) => a.endpointId === "flaky" && a.outcome === "delivered"),
      'the delivery to "flaky" is delivered',
    );
    expect(
      disabled.length === 1 && disabled[0]?.[0] === "gone" && disabled[0]?.[1] === "gone",
      'endpoint "gone" is disabled because it answered 410',
    );
    expect(dispatcher.disabledEndpoints().get("gone") === "gone", 'disabledEndpoints() lists "gone"');
  } finally {
    await dispatcher.close();
    await Promise.all([stop(flaky.server), stop(gone.server)]);
  }
}
