/**
 * The dispatcher against real HTTP receivers on 127.0.0.1, each checking every request with the
 * library's verifier: signatures made at each attempt's own timestamp, byte-identical bodies, one
 * delivery id per (event, endpoint), the retry delays, Retry-After, redirects, time-outs,
 * disabling, dead deliveries and replay.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookDispatcher,
  type DeadDelivery,
  type DeliveryAttempt,
  isDispatchError,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "../../src/dispatch/index.js";
import { isEventValidationError } from "../../src/events/index.js";
import { safeVerifyWebhook } from "../../src/webhooks/index.js";
import { type Answer, eventually, type Receiver, startReceiver } from "./receiver.js";

const SECRET = "whsec_dispatch_test";
const event = { event: { type: "s.message.text", content: { body: "Hello" } }, roomId: "room-42" } as const;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

async function receiver(answer?: (index: number) => Answer): Promise<Receiver> {
  const started = await startReceiver([SECRET], answer && ((_request, index) => answer(index)));
  open.push(started);
  return started;
}

interface Harness {
  readonly dispatcher: WebhookDispatcher;
  readonly attempts: DeliveryAttempt[];
  readonly dead: DeadDelivery[];
  readonly disabled: [string, string][];
}

function dispatcherFor(
  endpoints: { id: string; url: string; secret?: string | string[] }[],
  options: Partial<WebhookDispatcherOptions> = {},
): Harness {
  const attempts: DeliveryAttempt[] = [];
  const dead: DeadDelivery[] = [];
  const disabled: [string, string][] = [];
  const dispatcher = createWebhookDispatcher({
    endpoints: endpoints.map((endpoint) => ({ secret: [SECRET], ...endpoint })),
    retry: { delaysMs: [50, 100, 200], jitter: 0 },
    timeoutMs: 2_000,
    // The receivers listen on loopback, which the dispatcher refuses unless allowed.
    destinations: { allow: ["127.0.0.1"] },
    onAttempt: (attempt) => {
      attempts.push(attempt);
    },
    onDead: (delivery) => {
      dead.push(delivery);
    },
    onEndpointDisabled: (endpoint, reason) => {
      disabled.push([endpoint.id, reason]);
    },
    ...options,
  });
  open.push(dispatcher);
  return { dispatcher, attempts, dead, disabled };
}

const finished = (attempts: DeliveryAttempt[], count: number) => () =>
  attempts.filter((attempt) => attempt.outcome !== "retry").length >= count;

describe("every attempt", () => {
  it("is signed afresh at its own timestamp, with the same body bytes and delivery id, after the waits of retry.delaysMs", async () => {
    const flaky = await receiver((index) => (index < 3 ? { status: 500 } : { status: 204 }));
    const steady = await receiver();
    const { dispatcher, attempts } = dispatcherFor([
      { id: "flaky", url: flaky.url },
      { id: "steady", url: steady.url },
    ]);
    const result = await dispatcher.dispatch(event);
    expect(result.deliveries.map((delivery) => delivery.endpointId)).toEqual(["flaky", "steady"]);
    await eventually(finished(attempts, 2));

    expect(flaky.requests).toHaveLength(4);
    expect(steady.requests).toHaveLength(1);
    for (const request of [...flaky.requests, ...steady.requests]) {
      // The library's verifier accepts each request: a valid signature over its own timestamp.
      expect(request.verified.success, request.verified.error?.message).toBe(true);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["service-signature"]).toMatch(/^[\w-]{86}$/);
      expect(request.headers["service-timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const timestamps = flaky.requests.map((request) => request.headers["service-timestamp"]);
    expect(new Set(timestamps).size).toBe(4);
    const signatures = flaky.requests.map((request) => request.headers["service-signature"]);
    expect(new Set(signatures).size).toBe(4);
    // The same bytes every time.
    for (const request of flaky.requests) expect(request.body.equals(flaky.requests[0]!.body)).toBe(true);
    expect(flaky.requests[0]!.body.equals(steady.requests[0]!.body)).toBe(true);
    expect(JSON.parse(flaky.requests[0]!.body.toString())).toEqual({
      type: "s.message.text",
      version: 2,
      content: { body: "Hello" },
      roomId: "room-42",
    });
    // One delivery id per (event, endpoint), the same on every attempt.
    const flakyIds = new Set(flaky.requests.map((request) => request.headers["service-webhook-id"]));
    expect([...flakyIds]).toEqual([result.deliveries[0]!.id]);
    expect(steady.requests[0]!.headers["service-webhook-id"]).toBe(result.deliveries[1]!.id);
    expect(result.deliveries[0]!.id).not.toBe(result.deliveries[1]!.id);
    // retry.delaysMs: 50, 100, 200 ms (no jitter here).
    const gaps = flaky.requests.slice(1).map((request, index) => request.at - flaky.requests[index]!.at);
    for (const [index, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual([50, 100, 200][index]! - 5);
    expect(
      attempts.filter((a) => a.endpointId === "flaky").map((a) => [a.attempt, a.status, a.outcome]),
    ).toEqual([
      [1, 500, "retry"],
      [2, 500, "retry"],
      [3, 500, "retry"],
      [4, 204, "delivered"],
    ]);
    expect(attempts.every((attempt) => attempt.eventId === result.eventId)).toBe(true);
  });

  it("is signed with the newest secret: the receiver accepts it during a rotation, and not with the old one alone", async () => {
    const target = await receiver();
    const { dispatcher, attempts } = dispatcherFor([
      { id: "rotating", url: target.url, secret: ["new-secret", SECRET] },
    ]);
    await dispatcher.dispatch(event);
    await eventually(finished(attempts, 1));
    const [request] = target.requests;
    const verify = (secret: string | string[]) =>
      safeVerifyWebhook({ body: request!.body, headers: request!.headers, secret });
    expect((await verify(["new-secret", SECRET])).success).toBe(true);
    expect((await verify("new-secret")).success).toBe(true);
    expect((await verify(SECRET)).success).toBe(false);
  });
});

describe("failures", () => {
  it("410 Gone disables the endpoint, kills the delivery and calls the hook; later events skip the endpoint", async () => {
    const gone = await receiver(() => ({ status: 410 }));
    const { dispatcher, attempts, dead, disabled } = dispatcherFor([{ id: "gone", url: gone.url }]);
    const { deliveries } = await dispatcher.dispatch(event);
    await eventually(() => dead.length === 1);
    expect(gone.requests).toHaveLength(1);
    expect(disabled).toEqual([["gone", "gone"]]);
    expect(attempts.map((a) => [a.status, a.outcome])).toEqual([[410, "dead"]]);
    expect(dead[0]).toMatchObject({
      id: deliveries[0]!.id,
      endpointId: "gone",
      attempts: 1,
      reason: "answered 410 Gone",
    });
    expect(dispatcher.disabledEndpoints()).toEqual(new Map([["gone", "gone"]]));
    expect((await dispatcher.dispatch(event)).deliveries).toEqual([]);
    dispatcher.enableEndpoint("gone");
    expect((await dispatcher.dispatch(event)).deliveries).toHaveLength(1);
  });

  it("never follows a redirect: a 3xx is a failure, retried until dead; the dead delivery is listed and replayable", async () => {
    const elsewhere = await receiver();
    let redirecting = true;
    const redirect = await receiver(() =>
      redirecting ? { status: 307, headers: { location: elsewhere.url } } : { status: 204 },
    );
    const { dispatcher, attempts, dead } = dispatcherFor([{ id: "redirect", url: redirect.url }]);
    const { deliveries } = await dispatcher.dispatch(event);
    await eventually(() => dead.length === 1);
    expect(redirect.requests).toHaveLength(4);
    expect(elsewhere.requests).toHaveLength(0);
    expect(attempts.map((a) => a.outcome)).toEqual(["retry", "retry", "retry", "dead"]);
    expect(dead[0]!.reason).toMatch(/307, a redirect \(never followed\)/);
    const listed = await dispatcher.deadDeliveries();
    expect(listed.map((delivery) => [delivery.id, delivery.attempts])).toEqual([[deliveries[0]!.id, 4]]);

    redirecting = false;
    expect(await dispatcher.replay(deliveries[0]!.id)).toBe(true);
    expect(await dispatcher.replay("no-such-delivery")).toBe(false);
    await eventually(() => attempts.some((a) => a.outcome === "delivered"));
    const last = redirect.requests.at(-1)!;
    expect(last.headers["service-webhook-id"]).toBe(deliveries[0]!.id);
    expect(last.body.equals(redirect.requests[0]!.body)).toBe(true);
    expect(last.verified.success).toBe(true);
    expect(await dispatcher.deadDeliveries()).toEqual([]);
  });

  it("aborts an attempt that outlasts timeoutMs, then retries", async () => {
    const slow = await receiver((index) => (index === 0 ? "hang" : { status: 204 }));
    const { dispatcher, attempts } = dispatcherFor([{ id: "slow", url: slow.url }], { timeoutMs: 200 });
    await dispatcher.dispatch(event);
    await eventually(finished(attempts, 1));
    expect(attempts.map((a) => [a.status, a.outcome, a.reason])).toEqual([
      [undefined, "retry", "timed out after 200 ms"],
      [204, "delivered", undefined],
    ]);
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(195);
    expect(attempts[0]!.durationMs).toBeLessThan(1_500);
  });

  it("honours Retry-After on 429 and 503: never earlier than asked, capped by the step after next", async () => {
    const limited = await receiver((index) =>
      index === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 204 },
    );
    const capped = await receiver((index) =>
      index === 0 ? { status: 503, headers: { "retry-after": "3600" } } : { status: 204 },
    );
    // The first retry is due after 50 ms; a Retry-After may stretch it up to the wait after (5 s, then 300 ms).
    const first = dispatcherFor([{ id: "limited", url: limited.url }], {
      retry: { delaysMs: [50, 5_000], jitter: 0 },
    });
    const second = dispatcherFor([{ id: "capped", url: capped.url }], {
      retry: { delaysMs: [50, 300], jitter: 0 },
    });
    await Promise.all([first.dispatcher.dispatch(event), second.dispatcher.dispatch(event)]);
    await eventually(() => finished(first.attempts, 1)() && finished(second.attempts, 1)());
    const limitedGap = limited.requests[1]!.at - limited.requests[0]!.at;
    expect(limitedGap).toBeGreaterThanOrEqual(995);
    expect(limitedGap).toBeLessThan(1_500);
    // An hour is asked; the cap is the wait after the next one (300 ms).
    const cappedGap = capped.requests[1]!.at - capped.requests[0]!.at;
    expect(cappedGap).toBeGreaterThanOrEqual(295);
    expect(cappedGap).toBeLessThan(800);
    expect(first.attempts[0]?.reason).toBe('answered 429 (Retry-After "1")');
    expect(second.attempts[0]?.reason).toBe('answered 503 (Retry-After "3600")');
  });

  it("disables an endpoint that fails without a success for disableAfterMs", async () => {
    const down = await receiver(() => ({ status: 500 }));
    const { dispatcher, attempts, disabled, dead } = dispatcherFor([{ id: "down", url: down.url }], {
      retry: { delaysMs: [200, 200, 200, 200, 200], jitter: 0 },
      disableAfterMs: 300,
    });
    await dispatcher.dispatch(event);
    await eventually(() => dead.length === 1);
    expect(disabled).toEqual([["down", "failing"]]);
    expect(attempts.map((a) => a.outcome)).toEqual(["retry", "retry", "dead"]);
    expect(dead[0]!.reason).toMatch(/is disabled$/);
  });

  it("treats a network error as a failure", async () => {
    const gone = await receiver();
    const url = gone.url;
    await gone.close();
    const { dispatcher, attempts } = dispatcherFor([{ id: "closed", url }], { retry: { delaysMs: [] } });
    await dispatcher.dispatch(event);
    await eventually(finished(attempts, 1));
    expect(attempts[0]).toMatchObject({
      status: undefined,
      outcome: "dead",
      reason: "network error (ECONNREFUSED)",
    });
  });
});

describe("dispatch", () => {
  it("refuses non-webhook types, invalid payloads and payloads over maxPayloadBytes, enqueueing nothing", async () => {
    const target = await receiver();
    const { dispatcher } = dispatcherFor([{ id: "t", url: target.url }], { maxPayloadBytes: 100 });
    const refusal = (input: unknown) =>
      dispatcher.dispatch(input as never).then(
        () => undefined,
        (error: unknown) => error,
      );
    const notWebhook = await refusal({ event: { type: "s.presence", content: { status: "online" } } });
    expect(isDispatchError(notWebhook) && notWebhook.code).toBe("ERR_DISPATCH_NOT_A_WEBHOOK_TYPE");
    const unknown = await refusal({ type: "s.nope", version: 2, content: {} });
    expect(isDispatchError(unknown) && unknown.code).toBe("ERR_DISPATCH_NOT_A_WEBHOOK_TYPE");
    const invalid = await refusal({ event: { type: "s.message.text", content: { body: 42 } } });
    expect(isEventValidationError(invalid) && invalid.code).toBe("ERR_INVALID_WEBHOOK_PAYLOAD");
    const wrongVersion = await refusal({ type: "s.room.close", version: 1, content: {} });
    expect(isEventValidationError(wrongVersion) && wrongVersion.code).toBe("ERR_INVALID_WEBHOOK_PAYLOAD");
    const large = await refusal({ event: { type: "s.message.text", content: { body: "é".repeat(60) } } });
    expect(isDispatchError(large) && large.code).toBe("ERR_DISPATCH_PAYLOAD_TOO_LARGE");
    // A payload as it is, unknown members kept.
    const { deliveries } = await dispatcher.dispatch({
      type: "s.room.close",
      version: 2,
      content: {},
      extra: 1,
    } as never);
    await target.waitFor(1);
    expect(JSON.parse(target.requests[0]!.body.toString())).toEqual({
      type: "s.room.close",
      version: 2,
      content: {},
      extra: 1,
    });
    expect(deliveries).toHaveLength(1);
    expect(target.requests).toHaveLength(1);
  });

  it("with deliver: false only enqueues", async () => {
    const target = await receiver();
    const { dispatcher } = dispatcherFor([{ id: "t", url: target.url }], { deliver: false });
    const { deliveries } = await dispatcher.dispatch(event);
    expect(deliveries).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(target.requests).toHaveLength(0);
  });

  it("never puts a secret or the URL in an error", async () => {
    const { dispatcher } = dispatcherFor([], {
      endpoints: async () => [{ id: "x", url: "ftp://user:pw@secret.example/", secret: ["hunter2"] }],
    });
    const error = await dispatcher.dispatch(event).catch((caught: unknown) => caught);
    expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_INVALID_ENDPOINT");
    expect(String((error as Error).message)).not.toMatch(/hunter2|secret\.example|pw/);
  });
});

describe("close", () => {
  it("lets the attempt in flight finish, is idempotent, and refuses new dispatches", async () => {
    const slow = await receiver(() => ({ status: 204, delayMs: 300 }));
    const { dispatcher, attempts } = dispatcherFor([{ id: "slow", url: slow.url }]);
    await dispatcher.dispatch(event);
    await slow.waitFor(1);
    const closing = dispatcher.close();
    expect(dispatcher.close()).toBe(closing);
    await closing;
    expect(attempts.map((a) => a.outcome)).toEqual(["delivered"]);
    const error = await dispatcher.dispatch(event).catch((caught: unknown) => caught);
    expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_CLOSED");
  });
});

describe("many workers", () => {
  it("waits on the queue with 50 workers without a listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const target = await receiver(() => ({ status: 204 }));
      const { dispatcher, attempts } = dispatcherFor([{ id: "many", url: target.url }], { concurrency: 50 });
      await dispatcher.dispatch(event);
      await eventually(() => attempts.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await dispatcher.close();
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
