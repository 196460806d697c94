/**
 * The webhook receiver behind node:http on 127.0.0.1, with the library's dispatcher as the real
 * sender (the memory queue, retry delays of tens of milliseconds):
 *
 * - a handler that fails its first run is run again by the sender's retry, and the dispatcher
 *   records the delivery as delivered only once a run has succeeded;
 * - a handler slower than the sender's time-out is never run twice at once: the retries that arrive
 *   while it runs get 409, the one after it 204 without running it again;
 * - a request without a delivery id is handled, an exact replay of it is refused (401
 *   ERR_WEBHOOK_REPLAYED) and a copy signed again is handled again;
 * - a delivery id already completed is answered 204 without a run, whatever the signature.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookDispatcher,
  type DeliveryAttempt,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "../../src/dispatch/index.js";
import { signWebhook } from "../../src/webhooks/index.js";
import { EventLog, eventually, type ReceiverServer, sleep, startReceiverServer } from "./receiverSupport.js";

const SECRET = "whsec_receiver_loopback";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // The dispatchers first (they wait for their attempts in flight), then the receivers.
  const items = open.splice(0).reverse();
  for (const item of items) await item.close();
});

/** A receiver whose `s.message.text` handler is `handler`, logging into `log`. */
async function receiverWith(
  log: EventLog,
  handler: (tag: string, run: number) => Promise<void> | void,
): Promise<ReceiverServer> {
  const counts = new Map<string, number>();
  const server = await startReceiverServer({
    secret: SECRET,
    on: {
      "s.message.text": async (payload, context) => {
        const tag = payload.content.body;
        const run = (counts.get(tag) ?? 0) + 1;
        counts.set(tag, run);
        const end = log.start(tag, context.deliveryId, context.signature);
        try {
          await handler(tag, run);
        } catch (error) {
          end("failed");
          throw error;
        }
        end("ok");
      },
    },
    onError: log.onError,
  });
  open.push(server);
  return server;
}

function dispatcherTo(
  url: string,
  log: EventLog,
  options: Partial<WebhookDispatcherOptions> = {},
): { dispatcher: WebhookDispatcher; attempts: DeliveryAttempt[] } {
  const attempts: DeliveryAttempt[] = [];
  const dispatcher = createWebhookDispatcher({
    endpoints: [{ id: "receiver", url, secret: [SECRET] }],
    retry: { delaysMs: [50, 100, 200, 400, 800, 1_600], jitter: 0 },
    timeoutMs: 2_000,
    // The receivers listen on loopback, which the dispatcher refuses unless allowed.
    destinations: { allow: ["127.0.0.1"] },
    onAttempt: (attempt) => {
      attempts.push(attempt);
      log.tick(`attempt ${attempt.attempt} ${attempt.status ?? "-"} ${attempt.outcome}`);
    },
    ...options,
  });
  open.push(dispatcher);
  return { dispatcher, attempts };
}

const text = (tag: string) =>
  ({
    event: { type: "s.message.text", content: { body: tag } },
    roomId: "room-1",
  }) as const;

const settled = (attempts: DeliveryAttempt[]) => () => attempts.some((a) => a.outcome !== "retry");

describe("the receiver behind node:http, with the dispatcher as the sender", () => {
  it("runs a handler that failed its first run again on the retry, and the delivery counts as delivered only after the success", async () => {
    const log = new EventLog();
    const { url } = await receiverWith(log, (_tag, run) => {
      if (run === 1) throw new Error("the first run fails");
    });
    const { dispatcher, attempts } = dispatcherTo(url, log);
    const { deliveries } = await dispatcher.dispatch(text("fail-once"));
    await eventually(settled(attempts), "the delivery to settle");
    // Nothing runs after the delivery was settled.
    await sleep(100);

    const runs = log.runsOf("fail-once");
    expect(runs.map((run) => [run.deliveryId, run.outcome])).toEqual([
      [deliveries[0]!.id, "failed"],
      [deliveries[0]!.id, "ok"],
    ]);
    expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, "retry"],
      [2, 204, "delivered"],
    ]);
    // The order: the failed run, its 500 seen by the sender, the retry's run, then delivered.
    expect(log.lines).toEqual([
      "run fail-once start",
      "run fail-once failed",
      "error 500 ERR_WEBHOOK_HANDLER_FAILED",
      "attempt 1 500 retry",
      "run fail-once start",
      "run fail-once ok",
      "attempt 2 204 delivered",
    ]);
    expect(log.errors.map(({ context }) => [context.status, context.deliveryId])).toEqual([
      [500, deliveries[0]!.id],
    ]);
    expect(await dispatcher.deadDeliveries()).toEqual([]);
  });

  it("never runs a handler slower than the sender's time-out twice at once: 409 while it runs, then 204 without a second run", async () => {
    const log = new EventLog();
    const { url } = await receiverWith(log, () => sleep(700));
    // The sender gives up on each attempt after 150 ms and retries 50, 100, 200, 400… ms later.
    const { dispatcher, attempts } = dispatcherTo(url, log, { timeoutMs: 150 });
    const { deliveries } = await dispatcher.dispatch(text("slow"));
    await eventually(settled(attempts), "the delivery to settle");
    await sleep(100);

    const runs = log.runsOf("slow");
    expect(runs).toHaveLength(1);
    expect(runs[0]!.outcome).toBe("ok");
    expect(log.mostAtOnce("slow")).toBe(1);
    // Attempt 1 timed out; those during the run got 409; the one after it got 204 and ran nothing.
    expect(attempts[0]).toMatchObject({ attempt: 1, status: undefined, reason: "timed out after 150 ms" });
    const during = attempts.slice(1, -1);
    expect(during.length).toBeGreaterThanOrEqual(1);
    for (const attempt of during) expect([attempt.status, attempt.outcome]).toEqual([409, "retry"]);
    expect(attempts.at(-1)).toMatchObject({ status: 204, outcome: "delivered" });
    // Delivered only after the run had ended.
    const delivered = log.lines.indexOf(`attempt ${attempts.length} 204 delivered`);
    expect(delivered).toBeGreaterThan(log.lines.indexOf("run slow ok"));
    // Every 409 was told to onError, with the delivery id.
    expect(log.errors.map(({ error, context }) => [error.code, context.status, context.deliveryId])).toEqual(
      during.map(() => ["ERR_WEBHOOK_IN_PROGRESS", 409, deliveries[0]!.id]),
    );
    expect(await dispatcher.deadDeliveries()).toEqual([]);
  });

  it("handles a request without a delivery id, refuses its exact replay (401) and handles a copy signed again", async () => {
    const log = new EventLog();
    const { url } = await receiverWith(log, () => undefined);
    const payload = { type: "s.message.text", version: 2, content: { body: "no-id" }, roomId: "room-1" };
    const send = (signed: { body: string; headers: Record<string, string> }) =>
      fetch(url, { method: "POST", headers: signed.headers, body: signed.body });

    const first = await signWebhook({ payload, secret: SECRET });
    expect("service-webhook-id" in first.headers).toBe(false);
    const handled = await send(first);
    expect(handled.status).toBe(204);
    expect(await handled.text()).toBe("");
    expect(log.runsOf("no-id")).toHaveLength(1);

    // The same signed bytes again: refused, and the handler does not run.
    const replayed = await send(first);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ code: "ERR_WEBHOOK_REPLAYED" });
    expect(log.runsOf("no-id")).toHaveLength(1);

    // Signed again (a later timestamp, so another signature): a new webhook, handled again.
    const again = await signWebhook({ payload, secret: SECRET, timestamp: Date.now() + 1_000 });
    expect(again.headers["service-signature"]).not.toBe(first.headers["service-signature"]);
    expect((await send(again)).status).toBe(204);
    const runs = log.runsOf("no-id");
    expect(runs.map((run) => [run.deliveryId, run.outcome])).toEqual([
      [undefined, "ok"],
      [undefined, "ok"],
    ]);
    expect(runs[0]!.signature).not.toBe(runs[1]!.signature);
    // Its replay is refused in turn.
    expect((await send(again)).status).toBe(401);
    expect(log.runsOf("no-id")).toHaveLength(2);
    expect(log.errors.map(({ error, context }) => [error.code, context.status, context.deliveryId])).toEqual([
      ["ERR_WEBHOOK_REPLAYED", 401, undefined],
      ["ERR_WEBHOOK_REPLAYED", 401, undefined],
    ]);
  });

  it("answers a completed delivery id 204 without running the handler, whatever its signature", async () => {
    const log = new EventLog();
    const { url } = await receiverWith(log, () => undefined);
    const { dispatcher, attempts } = dispatcherTo(url, log);
    const { deliveries } = await dispatcher.dispatch(text("with-id"));
    await eventually(settled(attempts), "the delivery to settle");
    const payload = { type: "s.message.text", version: 2, content: { body: "with-id" }, roomId: "room-1" };
    const copy = await signWebhook({ payload, secret: SECRET, timestamp: Date.now() + 1_000 });
    const headers = { ...copy.headers, "service-webhook-id": deliveries[0]!.id };
    for (let i = 0; i < 2; i++) {
      const response = await fetch(url, { method: "POST", headers, body: copy.body });
      expect(response.status).toBe(204);
    }
    expect(log.runsOf("with-id")).toHaveLength(1);
    expect(log.errors).toEqual([]);
  });
});
