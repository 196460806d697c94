/**
 * The dispatcher's per-endpoint controls against real HTTP receivers on 127.0.0.1: concurrency per
 * endpoint (one hanging endpoint cannot hold every worker), rate limits, the circuit breaker,
 * subscriptions, custom headers, and what the endpoint answered (`response`, `lastResponse`).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookDispatcher,
  type DeadDelivery,
  type DeliveryAttempt,
  isDispatchError,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
  type WebhookEndpoint,
} from "../../src/dispatch/index.js";
import { safeVerifyWebhook } from "../../src/webhooks/index.js";
import { eventually } from "./receiver.js";

const SECRET = "whsec_endpoint_controls";
const text = { event: { type: "s.message.text", content: { body: "Hello" } }, roomId: "room-42" } as const;
const roomClose = { event: { type: "s.room.close", content: {} }, roomId: "room-42" } as const;

// Receivers close first (destroying the requests they hold), so that closing a dispatcher does not
// wait for a hanging attempt to time out.
const servers: Server[] = [];
const dispatchers: WebhookDispatcher[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
});

interface Hit {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** When the whole request had arrived (Date.now()). */
  readonly at: number;
}

/** How to answer: a status with a body, after a delay, or never. */
type Reply =
  | { readonly status: number; readonly body?: string | Uint8Array; readonly delayMs?: number }
  | "hang";

interface Server {
  /** `http://127.0.0.1:<port>`: endpoints add a path. */
  readonly base: string;
  readonly hits: Hit[];
  /** The most requests to `path` the server held at once. */
  peak(path: string): number;
  close(): Promise<void>;
}

/** A loopback server that records every request and how many it held at once, per path. */
async function serve(reply: (hit: Hit) => Reply = () => ({ status: 204 })): Promise<Server> {
  const hits: Hit[] = [];
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (request, response) => {
    const path = request.url ?? "/";
    const now = (inFlight.get(path) ?? 0) + 1;
    inFlight.set(path, now);
    peaks.set(path, Math.max(peaks.get(path) ?? 0, now));
    response.once("close", () => {
      inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
    });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const hit: Hit = { path, headers: request.headers, body: Buffer.concat(chunks), at: Date.now() };
    hits.push(hit);
    const answer = reply(hit);
    if (answer === "hang") {
      hanging.add(response);
      return;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    response.writeHead(answer.status);
    response.end(answer.body);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  const started: Server = {
    base: `http://127.0.0.1:${port}`,
    hits,
    peak: (path) => peaks.get(path) ?? 0,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  servers.push(started);
  return started;
}

/** An attempt as reported, with when it was reported. */
type Reported = DeliveryAttempt & { readonly reportedAt: number };

interface Run {
  readonly dispatcher: WebhookDispatcher;
  /** Every attempt, in the order `onAttempt` saw them. */
  readonly attempts: Reported[];
  readonly dead: DeadDelivery[];
}

function dispatcherFor(
  endpoints: readonly (Omit<WebhookEndpoint, "secret"> & { readonly secret?: string })[],
  options: Partial<WebhookDispatcherOptions> = {},
): Run {
  const attempts: Reported[] = [];
  const dead: DeadDelivery[] = [];
  const dispatcher = createWebhookDispatcher({
    endpoints: endpoints.map((endpoint) => ({ secret: SECRET, ...endpoint })),
    retry: { delaysMs: [50, 100, 200], jitter: 0 },
    timeoutMs: 2_000,
    // The receivers listen on loopback, which the dispatcher refuses unless allowed.
    destinations: { allow: ["127.0.0.1"] },
    onAttempt: (attempt) => {
      attempts.push({ ...attempt, reportedAt: Date.now() });
    },
    onDead: (delivery) => {
      dead.push(delivery);
    },
    ...options,
  });
  dispatchers.push(dispatcher);
  return { dispatcher, attempts, dead };
}

const hitsTo = (server: Server, path: string) => server.hits.filter((hit) => hit.path === path);
const deliveredTo = (attempts: readonly Reported[], endpointId: string) =>
  attempts.filter((attempt) => attempt.endpointId === endpointId && attempt.outcome === "delivered");
/** A C0 or C1 control character other than tab, LF and CR: what an excerpt never shows. */
function isHiddenControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);
}
/** The thrown value of `run`, or a failure when nothing was thrown. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("per-endpoint concurrency", () => {
  const healthyPaths = Array.from({ length: 9 }, (_, index) => `/healthy-${index + 1}`);
  const tenEndpoints = async () => {
    const slow = await serve(() => "hang");
    const healthy = await serve();
    return {
      slow,
      endpoints: [
        { id: "slow", url: `${slow.base}/slow` },
        ...healthyPaths.map((path, index) => ({ id: `healthy-${index + 1}`, url: `${healthy.base}${path}` })),
      ],
    };
  };
  const healthyDelivered = (attempts: readonly Reported[]) =>
    attempts.filter((attempt) => attempt.endpointId !== "slow" && attempt.outcome === "delivered");

  it("one endpoint that never answers cannot starve nine healthy ones (endpointConcurrency defaults to a quarter of concurrency)", async () => {
    const { slow, endpoints } = await tenEndpoints();
    const { dispatcher, attempts } = dispatcherFor(endpoints, { concurrency: 10, timeoutMs: 5_000 });
    for (let index = 0; index < 20; index++) {
      const { deliveries } = await dispatcher.dispatch(text);
      expect(deliveries).toHaveLength(10);
    }
    await eventually(() => healthyDelivered(attempts).length === 180, 30_000, "the 180 healthy deliveries");
    // Every healthy delivery was reported before any attempt to `slow` ended (by its time-out).
    const firstSlowEnd = attempts.findIndex((attempt) => attempt.endpointId === "slow");
    const healthyIndexes = attempts.flatMap((attempt, index) =>
      attempt.endpointId !== "slow" && attempt.outcome === "delivered" ? [index] : [],
    );
    expect(healthyIndexes).toHaveLength(180);
    if (firstSlowEnd !== -1) expect(healthyIndexes.at(-1)!).toBeLessThan(firstSlowEnd);
    expect(attempts.filter((attempt) => attempt.endpointId !== "slow").every((a) => a.attempt === 1)).toBe(
      true,
    );
    // ceil(10 / 4) = 3 attempts held `slow` at once, never more; its other 17 deliveries waited.
    expect(slow.peak("/slow")).toBe(3);
    expect(slow.hits.length).toBeLessThanOrEqual(3);
  });

  it("contrast: with endpointConcurrency as large as concurrency, healthy deliveries wait for the hanging attempts to time out", async () => {
    const { endpoints } = await tenEndpoints();
    const { dispatcher, attempts } = dispatcherFor(endpoints, {
      concurrency: 10,
      endpointConcurrency: 10,
      timeoutMs: 1_000,
      retry: { delaysMs: [60_000], jitter: 0 },
    });
    for (let index = 0; index < 20; index++) await dispatcher.dispatch(text);
    await eventually(() => healthyDelivered(attempts).length === 180, 30_000, "the 180 healthy deliveries");
    const firstSlowEnd = attempts.findIndex((attempt) => attempt.endpointId === "slow");
    expect(firstSlowEnd).toBeGreaterThanOrEqual(0);
    expect(attempts[firstSlowEnd]!.reason).toBe("timed out after 1000 ms");
    const lastHealthy = Math.max(
      ...attempts.map((attempt, index) =>
        attempt.endpointId !== "slow" && attempt.outcome === "delivered" ? index : -1,
      ),
    );
    expect(lastHealthy).toBeGreaterThan(firstSlowEnd);
  });

  it("an endpoint's own concurrency overrides endpointConcurrency, lower or higher", async () => {
    const server = await serve(() => ({ status: 204, delayMs: 150 }));
    const { dispatcher, attempts } = dispatcherFor(
      [
        { id: "narrow", url: `${server.base}/narrow`, concurrency: 1 },
        { id: "usual", url: `${server.base}/usual` },
        { id: "wide", url: `${server.base}/wide`, concurrency: 5 },
      ],
      { concurrency: 10, endpointConcurrency: 2 },
    );
    for (let index = 0; index < 6; index++) await dispatcher.dispatch(text);
    await eventually(
      () => attempts.filter((attempt) => attempt.outcome === "delivered").length === 18,
      30_000,
      "18 deliveries",
    );
    expect(server.peak("/narrow")).toBe(1);
    expect(server.peak("/usual")).toBe(2);
    // More than endpointConcurrency, never more than its own limit.
    expect(server.peak("/wide")).toBeGreaterThan(2);
    expect(server.peak("/wide")).toBeLessThanOrEqual(5);
    // Waiting for a free slot is not an attempt.
    expect(attempts.every((attempt) => attempt.attempt === 1)).toBe(true);
  });
});

describe("ratePerSecond", () => {
  it("starts attempts no faster than a token bucket of 5 refilled at 5 per second; other endpoints are unaffected", async () => {
    const server = await serve();
    const { dispatcher, attempts } = dispatcherFor(
      [
        { id: "limited", url: `${server.base}/limited`, ratePerSecond: 5 },
        { id: "free", url: `${server.base}/free` },
      ],
      { concurrency: 10 },
    );
    for (let index = 0; index < 12; index++) await dispatcher.dispatch(text);
    await eventually(
      () => attempts.filter((attempt) => attempt.outcome === "delivered").length === 24,
      30_000,
      "24 deliveries",
    );
    // Each attempt is signed the moment it is let through: its service-timestamp is when it started.
    const starts = hitsTo(server, "/limited")
      .map((hit) => Date.parse(String(hit.headers["service-timestamp"])))
      .sort((a, b) => a - b);
    expect(starts).toHaveLength(12);
    const first = starts[0]!;
    // Five at once, then one every 200 ms: the k-th (from 0) starts no sooner than (k - 4) × 200 ms after the first.
    for (const [index, start] of starts.entries()) {
      if (index >= 5) expect(start - first).toBeGreaterThanOrEqual((index - 4) * 200 - 20);
    }
    expect(starts[11]! - first).toBeGreaterThanOrEqual(1_380);
    // The other endpoint's twelve were all delivered before the limited one's last attempt started.
    const free = deliveredTo(attempts, "free");
    expect(free).toHaveLength(12);
    expect(Math.max(...free.map((attempt) => attempt.reportedAt))).toBeLessThan(starts[11]!);
    // Waiting for a token is not an attempt.
    expect(deliveredTo(attempts, "limited").every((attempt) => attempt.attempt === 1)).toBe(true);
  });
});

describe("circuit breaker", () => {
  interface Change {
    readonly endpointId: string;
    readonly state: string;
    readonly reopensAt: number | undefined;
    readonly at: number;
    /** What dispatcher.circuitState said inside the hook. */
    readonly observed: string;
  }

  it("opens after failureThreshold failures, lets one probe through at a time, doubles the wait up to maxOpenMs, closes on success; waiting uses up no retry", async () => {
    let recovered = false;
    const server = await serve((hit) =>
      hit.path === "/steady" || recovered ? { status: 204 } : { status: 500 },
    );
    const changes: Change[] = [];
    const run: Run = dispatcherFor(
      [
        // One attempt at a time, so that every request to it is the one the breaker let through.
        { id: "flaky", url: `${server.base}/flaky`, concurrency: 1 },
        { id: "steady", url: `${server.base}/steady` },
      ],
      {
        circuitBreaker: { failureThreshold: 3, openMs: 300, maxOpenMs: 1_200 },
        retry: { delaysMs: [20, 20, 20, 20, 20, 20, 20, 20], jitter: 0 },
        onCircuitChange: (endpoint, state, reopensAt) => {
          changes.push({
            endpointId: endpoint.id,
            state,
            reopensAt,
            at: Date.now(),
            observed: run.dispatcher.circuitState(endpoint.id),
          });
          // The fourth opening (open for maxOpenMs again): the next probe succeeds.
          if (changes.filter((change) => change.state === "open").length === 4) recovered = true;
        },
      },
    );
    const { dispatcher, attempts, dead } = run;
    const dispatched = [];
    for (let index = 0; index < 4; index++) dispatched.push(await dispatcher.dispatch(text));
    await eventually(
      () => attempts.filter((attempt) => attempt.outcome === "delivered").length === 8,
      30_000,
      "8 deliveries",
    );

    expect(changes.map((change) => change.state)).toEqual([
      "open",
      "half-open",
      "open",
      "half-open",
      "open",
      "half-open",
      "open",
      "half-open",
      "closed",
    ]);
    expect(changes.every((change) => change.endpointId === "flaky")).toBe(true);
    expect(changes.map((change) => change.observed)).toEqual(changes.map((change) => change.state));
    expect(dispatcher.circuitState("flaky")).toBe("closed");
    expect(dispatcher.circuitState("steady")).toBe("closed");

    // Open for 300 ms, then twice as long after each failed probe, up to 1200 ms.
    const opens = changes.filter((change) => change.state === "open");
    for (const [index, open] of opens.entries()) {
      const planned = [300, 600, 1_200, 1_200][index]!;
      expect(open.reopensAt).toBeDefined();
      expect(open.reopensAt! - open.at).toBeGreaterThan(planned - 50);
      expect(open.reopensAt! - open.at).toBeLessThanOrEqual(planned);
    }
    const flaky = hitsTo(server, "/flaky");
    // Three failures, then nothing while open; each half-open lets exactly one probe through.
    expect(flaky.filter((hit) => hit.at <= changes[0]!.at)).toHaveLength(3);
    for (let index = 0; index < changes.length - 1; index += 2) {
      const open = changes[index]!;
      const halfOpen = changes[index + 1]!;
      const next = changes[index + 2]!;
      expect(halfOpen.at).toBeGreaterThanOrEqual(open.reopensAt!);
      expect(flaky.filter((hit) => hit.at > open.at && hit.at < halfOpen.at)).toEqual([]);
      expect(flaky.filter((hit) => hit.at >= halfOpen.at && hit.at <= next.at)).toHaveLength(1);
    }
    // 3 failures, 3 failed probes, the probe that closed it, and the other three deliveries.
    expect(flaky).toHaveLength(10);

    // The other endpoint went on while flaky's circuit was open.
    const steady = deliveredTo(attempts, "steady");
    expect(steady).toHaveLength(4);
    expect(Math.max(...steady.map((attempt) => attempt.reportedAt))).toBeLessThan(changes[1]!.at);

    // Everything delivered, nothing dead, and each delivery's attempt numbers count only the requests
    // it made: the waits while open were no attempts.
    expect(dead).toEqual([]);
    expect(await dispatcher.deadDeliveries()).toEqual([]);
    for (const { deliveries } of dispatched) {
      const id = deliveries.find((delivery) => delivery.endpointId === "flaky")!.id;
      const own = attempts.filter((attempt) => attempt.deliveryId === id);
      const requests = flaky.filter((hit) => hit.headers["service-webhook-id"] === id);
      expect(own.map((attempt) => attempt.attempt)).toEqual(own.map((_, index) => index + 1));
      expect(own).toHaveLength(requests.length);
      expect(own.at(-1)!.outcome).toBe("delivered");
    }
    expect(Math.max(...attempts.map((attempt) => attempt.attempt))).toBeLessThanOrEqual(9);
  });

  it("circuitBreaker: false never opens: every retry reaches the failing endpoint until the delivery dies", async () => {
    const server = await serve(() => ({ status: 500 }));
    const changes: string[] = [];
    const states = new Set<string>();
    // 13 attempts: more than the default failureThreshold (10), so a breaker left on would show.
    const run: Run = dispatcherFor([{ id: "down", url: `${server.base}/down`, concurrency: 1 }], {
      circuitBreaker: false,
      retry: { delaysMs: Array.from({ length: 12 }, () => 10), jitter: 0 },
      onAttempt: (attempt) => {
        run.attempts.push({ ...attempt, reportedAt: Date.now() });
        states.add(run.dispatcher.circuitState("down"));
      },
      onCircuitChange: (_endpoint, state) => {
        changes.push(state);
      },
    });
    const { dispatcher, attempts, dead } = run;
    await dispatcher.dispatch(text);
    await eventually(() => dead.length === 1, 30_000, "the delivery to die");
    expect(server.hits).toHaveLength(13);
    expect(attempts.map((attempt) => attempt.attempt)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(dead[0]!.attempts).toBe(13);
    expect(changes).toEqual([]);
    expect([...states]).toEqual(["closed"]);
  });
});

describe("subscriptions", () => {
  it("queues an event only for the endpoints subscribed to its type", async () => {
    const server = await serve();
    const { dispatcher, attempts } = dispatcherFor([
      { id: "texts", url: `${server.base}/texts`, types: ["s.message.text"] },
      { id: "closes", url: `${server.base}/closes`, types: ["s.room.close"] },
      { id: "all", url: `${server.base}/all` },
    ]);
    const sent = await dispatcher.dispatch(text);
    const closed = await dispatcher.dispatch(roomClose);
    expect(sent.deliveries.map((delivery) => delivery.endpointId)).toEqual(["texts", "all"]);
    expect(closed.deliveries.map((delivery) => delivery.endpointId)).toEqual(["closes", "all"]);
    await eventually(() => attempts.length === 4, 10_000, "4 attempts");
    const typesAt = (path: string) =>
      hitsTo(server, path)
        .map((hit) => (JSON.parse(hit.body.toString()) as { type: string }).type)
        .sort();
    expect(typesAt("/texts")).toEqual(["s.message.text"]);
    expect(typesAt("/closes")).toEqual(["s.room.close"]);
    expect(typesAt("/all")).toEqual(["s.message.text", "s.room.close"]);
  });

  it("refuses an unknown type in types, from a fixed list at creation and from an endpoints function at dispatch", async () => {
    const endpoint = {
      id: "typo",
      url: "https://hooks.example.com/in",
      secret: SECRET,
      types: ["s.message.txt"] as unknown as WebhookEndpoint["types"],
    };
    const atCreation = thrownBy(() => createWebhookDispatcher({ endpoints: [endpoint] }));
    expect(isDispatchError(atCreation) && atCreation.code).toBe("ERR_DISPATCH_INVALID_ENDPOINT");
    expect((atCreation as Error).message).toContain("s.message.txt");

    const { dispatcher } = dispatcherFor([], { endpoints: async () => [endpoint], deliver: false });
    const atDispatch = await dispatcher.dispatch(text).catch((error: unknown) => error);
    expect(isDispatchError(atDispatch) && atDispatch.code).toBe("ERR_DISPATCH_INVALID_ENDPOINT");
  });
});

describe("endpoint headers", () => {
  it("are sent on every attempt, beside the signed ones, and the signature still verifies", async () => {
    let requests = 0;
    const server = await serve(() => (++requests < 3 ? { status: 500 } : { status: 204 }));
    const { dispatcher, attempts } = dispatcherFor(
      [
        {
          id: "tenant",
          url: `${server.base}/tenant`,
          headers: { "X-Tenant": "42", "x-trace": "a b\tc", authorization: "Bearer t0k3n" },
        },
      ],
      { retry: { delaysMs: [20, 20, 20], jitter: 0 } },
    );
    await dispatcher.dispatch(text);
    await eventually(() => deliveredTo(attempts, "tenant").length === 1, 10_000, "the delivery");
    expect(server.hits).toHaveLength(3);
    for (const hit of server.hits) {
      expect(hit.headers["x-tenant"]).toBe("42");
      expect(hit.headers["x-trace"]).toBe("a b\tc");
      expect(hit.headers.authorization).toBe("Bearer t0k3n");
      expect(hit.headers["content-type"]).toBe("application/json");
      const verified = await safeVerifyWebhook({ body: hit.body, headers: hit.headers, secret: SECRET });
      expect(verified.success).toBe(true);
    }
  });

  const url = "https://hooks.example.com/in?token=url-token-1234";
  const secret = "whsec_never_in_a_message";
  it.each<[string, Record<string, string>]>([
    ["service-signature", { "service-signature": "forged" }],
    ["Service-Signature", { "Service-Signature": "forged" }],
    ["service-timestamp", { "Service-Timestamp": "2020-01-01T00:00:00.000Z" }],
    ["service-webhook-id", { "SERVICE-WEBHOOK-ID": "other" }],
    ["content-type", { "content-type": "text/plain" }],
    ["Content-Type", { "Content-Type": "text/plain" }],
    ["host", { host: "internal.example" }],
    ["HOST", { HOST: "internal.example" }],
    ["content-length", { "content-length": "0" }],
    ["Content-Length", { "Content-Length": "0" }],
    ["a name with a space", { "x tenant": "42" }],
    ["a value with CR LF", { "x-tenant": "42\r\nx-injected: 1" }],
    ["a value with LF", { "x-tenant": "42\nx-injected: 1" }],
    ["a value with CR", { "x-tenant": "42\rx" }],
  ])("refuses %s at creation, naming neither the URL nor the secret", (_name, headers) => {
    const error = thrownBy(() =>
      createWebhookDispatcher({ endpoints: [{ id: "acme", url, secret, headers }], deliver: false }),
    );
    expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_INVALID_ENDPOINT");
    const { message } = error as Error;
    expect(message).toContain('"acme"');
    expect(message).not.toMatch(/url-token-1234|hooks\.example\.com|whsec_never_in_a_message/);
  });
});

describe("what the endpoint answered", () => {
  // Bytes 0..1021: a head with control characters, a tab, a line break and multibyte characters, then
  // filler; bytes 1022..1025: an emoji cut in two by the 1 KiB mark; then more of the same, to 5,000 bytes.
  const head = "error:\u0000 database unavailable \u001b[31m\tnaïve café 5 € \r\nretry later; 日本 ";
  const beforeCut = head + "x".repeat(1022 - Buffer.byteLength(head));
  const tail = "é€😀\u0000\u001b\n".repeat(200);
  const unpadded = `${beforeCut}😀${tail}`;
  const full = unpadded + "z".repeat(5_000 - Buffer.byteLength(unpadded));
  const answer = Buffer.from(full);
  /** The answer's text with the control characters it holds (NUL, ESC) as U+FFFD. */
  const shown = (value: string) => value.replaceAll("\u0000", "\ufffd").replaceAll("\u001b", "\ufffd");

  it("hands onAttempt, onDead and deadDeliveries() the status and the first bytes of the body, whole characters only, control characters replaced", async () => {
    expect(answer.byteLength).toBe(5_000);
    const server = await serve(() => ({ status: 500, body: answer }));
    const { dispatcher, attempts, dead } = dispatcherFor([{ id: "failing", url: `${server.base}/failing` }], {
      retry: { delaysMs: [] },
    });
    await dispatcher.dispatch(text);
    await eventually(() => dead.length === 1, 10_000, "the delivery to die");
    const [attempt] = attempts;
    expect(attempt).toMatchObject({ status: 500, outcome: "dead" });
    const response = attempt!.response!;
    expect(response.status).toBe(500);
    // A prefix of the answer as text: no character cut in two, NUL and ESC shown as U+FFFD, tab and
    // line break kept.
    expect(shown(full).startsWith(response.body)).toBe(true);
    expect(response.body.startsWith(shown(head))).toBe(true);
    expect(response.body.endsWith("x")).toBe(true);
    expect(Buffer.from(response.body).toString()).toBe(response.body);
    expect([...response.body].some(isHiddenControl)).toBe(false);
    expect(response.body).toContain("\t");
    expect(response.body).toContain("\r\n");
    // The dead delivery carries it, in the hook and in the queue's list.
    expect(dead[0]!.lastResponse).toEqual(response);
    const listed = await dispatcher.deadDeliveries();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.lastResponse).toEqual(response);
  });

  // Each replaced control character grows from 1 byte to 3: the cut comes after the replacing.
  it("keeps at most 1,024 bytes of UTF-8, as documented, even when control characters are replaced", async () => {
    const answers = [answer, Buffer.alloc(2_000, 0)];
    let requests = 0;
    const server = await serve(() => ({ status: 500, body: answers[requests++]! }));
    const { dispatcher, attempts } = dispatcherFor([{ id: "failing", url: `${server.base}/failing` }], {
      retry: { delaysMs: [] },
    });
    for (const _ of answers) {
      const { deliveries } = await dispatcher.dispatch(text);
      await eventually(() => attempts.some((attempt) => attempt.deliveryId === deliveries[0]!.id));
    }
    const sizes = attempts.map((attempt) => Buffer.byteLength(attempt.response!.body));
    expect(
      sizes.every((size) => size <= 1_024),
      `excerpt sizes in UTF-8 bytes: ${sizes.join(", ")}`,
    ).toBe(true);
  });

  it("is undefined after a network error or a time-out, and the dead delivery has no lastResponse", async () => {
    const closed = await serve();
    const closedUrl = `${closed.base}/closed`;
    await closed.close();
    const hanging = await serve(() => "hang");
    const { dispatcher, attempts, dead } = dispatcherFor(
      [
        { id: "refused", url: closedUrl },
        { id: "hanging", url: `${hanging.base}/hanging` },
      ],
      { retry: { delaysMs: [] }, timeoutMs: 200 },
    );
    await dispatcher.dispatch(text);
    await eventually(() => dead.length === 2, 10_000, "both deliveries to die");
    const byEndpoint = new Map(attempts.map((attempt) => [attempt.endpointId, attempt]));
    expect(byEndpoint.get("refused")).toMatchObject({
      status: undefined,
      response: undefined,
      reason: "network error (ECONNREFUSED)",
    });
    expect(byEndpoint.get("hanging")).toMatchObject({
      status: undefined,
      response: undefined,
      reason: "timed out after 200 ms",
    });
    for (const delivery of [...dead, ...(await dispatcher.deadDeliveries())]) {
      expect("lastResponse" in delivery).toBe(false);
    }
  });

  it("property: whatever the bytes, the excerpt is whole characters, without control characters but tab and line ends, and a prefix of the answer of at most 1 KiB of it", async () => {
    let next: Uint8Array = new Uint8Array();
    const server = await serve(() => ({ status: 200, body: next }));
    const { dispatcher, attempts } = dispatcherFor([{ id: "echo", url: `${server.base}/echo` }]);
    // What the dispatcher may show as U+FFFD: control characters, and the line and paragraph separators.
    const replaceable = (char: string) => isHiddenControl(char) || char === "\u2028" || char === "\u2029";
    const validText = fc.oneof(
      // Multibyte characters around the 1 KiB mark.
      fc
        .tuple(fc.nat({ max: 1_100 }), fc.string({ unit: "binary", maxLength: 300 }))
        .map(([filler, rest]) => "a".repeat(filler) + rest),
      fc.string({
        unit: fc.constantFrom(
          "\u0000",
          "\u001b",
          "\u007f",
          "\u0085",
          "\t",
          "\n",
          "\r",
          "\u2028",
          "é",
          "€",
          "😀",
          "a",
        ),
        maxLength: 1_500,
      }),
    );
    const body = fc.oneof(
      validText.map((value) => ({
        bytes: new Uint8Array(Buffer.from(value)),
        text: value as string | undefined,
      })),
      fc.uint8Array({ maxLength: 2_000 }).map((bytes) => ({ bytes, text: undefined })),
    );
    await fc.assert(
      fc.asyncProperty(body, async ({ bytes, text: original }) => {
        next = bytes;
        const { deliveries } = await dispatcher.dispatch(text);
        const id = deliveries[0]!.id;
        await eventually(() => attempts.some((attempt) => attempt.deliveryId === id), 10_000, "the attempt");
        const excerpt = attempts.find((attempt) => attempt.deliveryId === id)!.response!.body;
        // Whole characters (no lone surrogate), no control character but tab, CR and LF.
        expect(Buffer.from(excerpt).toString()).toBe(excerpt);
        expect([...excerpt].filter(isHiddenControl)).toEqual([]);
        if (original === undefined) return;
        // Valid UTF-8: the answer's first characters, each as it was or replaced by U+FFFD.
        const shownChars = [...excerpt];
        const originalChars = [...original];
        expect(shownChars.length).toBeLessThanOrEqual(originalChars.length);
        let replaced = 0;
        for (const [index, char] of shownChars.entries()) {
          const was = originalChars[index]!;
          if (char === was) continue;
          expect([char, replaceable(was)]).toEqual(["\ufffd", true]);
          replaced++;
        }
        // It covers at most 1 KiB of the answer, and all of it that fits (give or take a character
        // cut in two, and room for what replacements add).
        const covered = Buffer.byteLength(originalChars.slice(0, shownChars.length).join(""));
        expect(covered).toBeLessThanOrEqual(1_024);
        expect(covered).toBeGreaterThanOrEqual(Math.min(bytes.byteLength, 1_021) - 2 * replaced);
      }),
      { numRuns: 40 },
    );
  });
});
