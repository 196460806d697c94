/**
 * The webhook receiver against any sequence of deliveries, handler failures, sender retries, exact
 * replays and concurrent copies, run in process (`receiver.receive` or `receiver.fetch`, the memory
 * store, a fresh receiver per run), with an honest sender: it retries a delivery until it is
 * answered 204, signing each attempt afresh with the same delivery id.
 *
 * What must hold, whatever the order:
 * - a delivery with an id whose handler eventually succeeded was handled successfully exactly once;
 *   without an id, each signed request at most once (a copy signed again is a new webhook, by design);
 * - no 204 for a delivery came before its successful run had ended;
 * - a run that threw was answered 500 (ERR_WEBHOOK_HANDLER_FAILED), and the next attempt ran it again;
 * - two runs of the same delivery never overlapped: a copy that came during a run got 409 with
 *   Retry-After;
 * - a request sent alone (nothing else under way) got exactly the answer the model predicts;
 * - every non-2xx answer was told to `onError`, once, with the same status and code; no 204 was.
 *
 * Each request runs in its own AsyncLocalStorage context, so the handler's runs and the `onError`
 * calls are tied to the very request that caused them.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createWebhookReceiver,
  signWebhook,
  type WebhookReceiver,
  type WebhookVerificationErrorCode,
} from "../../src/webhooks/index.js";

const SECRET = "whsec_receiver_property";

type Step =
  | { readonly kind: "new"; readonly withId: boolean; readonly failures: number }
  | { readonly kind: "fail"; readonly d: number }
  | { readonly kind: "retry"; readonly d: number }
  | { readonly kind: "replay"; readonly d: number }
  | { readonly kind: "concurrent"; readonly d: number; readonly resign: boolean };

const delivery = fc.nat(7);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant("new"), withId: fc.boolean(), failures: fc.nat(2) }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("fail"), d: delivery }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("retry"), d: delivery }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("replay"), d: delivery }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant("concurrent"), d: delivery, resign: fc.boolean() }),
    weight: 3,
  },
);

interface Plan {
  readonly steps: readonly Step[];
  /** How each handler run waits before it returns or throws (macrotask turns), used in turn. */
  readonly waits: readonly number[];
  readonly transport: "receive" | "fetch";
}

const plan: fc.Arbitrary<Plan> = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 30 }),
  waits: fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
  transport: fc.constantFrom("receive", "fetch"),
});

/** A request as signed by the sender: the exact bytes and headers. */
interface Signed {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A delivery as the sender knows it. */
interface Delivery {
  readonly tag: string;
  readonly id: string | undefined;
  /** How many of its next runs fail (the plan's `fail` steps). */
  failures: number;
  /** The last request the sender signed for it (what a replay copies). */
  last: Signed | undefined;
  /** Whether the sender was answered 204 for it. */
  delivered: boolean;
}

interface Run {
  readonly request: Sent;
  readonly started: number;
  ended: number | undefined;
  outcome: "ok" | "failed" | undefined;
}

/** One request and what came of it. */
interface Sent {
  readonly delivery: Delivery;
  /** What de-duplicates it: its delivery id, or its signature when it has none. */
  readonly unit: string;
  readonly started: number;
  answered: number;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  run: Run | undefined;
  readonly reported: { status: number; errorStatus: number; code: WebhookVerificationErrorCode }[];
}

/**
 * The request under way, seen from the handler and `onError`. One for the whole file: each instance
 * left enabled adds work to every promise created afterwards.
 */
const context = new AsyncLocalStorage<Sent>();

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What de-duplicates a request: its delivery id, or its signature when it has none. */
const unitOf = (target: Delivery, signed: Signed) =>
  target.id === undefined ? `signature:${signed.headers["service-signature"]}` : `id:${target.id}`;

/** Runs one plan against a fresh receiver; throws (through `expect`) on the first broken promise. */
async function check({ steps, waits, transport }: Plan): Promise<void> {
  let clock = 0;
  const tick = () => clock++;
  const deliveries: Delivery[] = [];
  const byTag = new Map<string, Delivery>();
  const requests: Sent[] = [];
  const running = new Set<Delivery>();
  const problems: string[] = [];
  let runs = 0;

  const receiver: WebhookReceiver = createWebhookReceiver({
    secret: SECRET,
    on: {
      "s.message.text": async (payload, info) => {
        const request = context.getStore();
        const target = byTag.get(payload.content.body);
        if (request === undefined || target !== request.delivery) {
          problems.push(`a run outside its request (${payload.content.body})`);
          return;
        }
        if (info.deliveryId !== target.id) problems.push(`${target.tag}: told id ${info.deliveryId}`);
        if (running.has(target)) problems.push(`${target.tag}: two runs at once`);
        if (request.run !== undefined) problems.push(`${target.tag}: one request ran twice`);
        const run: Run = { request, started: tick(), ended: undefined, outcome: undefined };
        request.run = run;
        running.add(target);
        try {
          for (let i = waits[runs++ % waits.length]!; i > 0; i--) await turn();
        } finally {
          running.delete(target);
        }
        if (target.failures > 0) {
          target.failures--;
          run.outcome = "failed";
          run.ended = tick();
          throw new Error(`${target.tag} fails as planned`);
        }
        run.outcome = "ok";
        run.ended = tick();
      },
    },
    onError: (error, { status }) => {
      const request = context.getStore();
      if (request === undefined) problems.push(`onError outside a request: ${error.code}`);
      else request.reported.push({ status, errorStatus: error.status, code: error.code });
    },
  });

  let timestamp = Date.now();
  const sign = async (target: Delivery): Promise<Signed> => {
    // Each attempt later than the last, so that no two attempts share a signature.
    timestamp = Math.max(Date.now(), timestamp + 1);
    const signed = await signWebhook({
      payload: { type: "s.message.text", version: 2, content: { body: target.tag }, roomId: "room-1" },
      secret: SECRET,
      timestamp,
    });
    const headers: Record<string, string> = { ...signed.headers };
    if (target.id !== undefined) headers["service-webhook-id"] = target.id;
    target.last = { body: signed.body, headers };
    return target.last;
  };

  const answer = async (signed: Signed) => {
    if (transport === "receive") {
      const receipt = await receiver.receive(signed);
      return {
        status: receipt.status,
        retryAfter: receipt.headers["retry-after"] ?? null,
        text: receipt.body,
      };
    }
    const response = await receiver.fetch(
      new Request("http://receiver.test/hooks", {
        method: "POST",
        headers: signed.headers,
        body: signed.body,
      }),
    );
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      text: await response.text(),
    };
  };

  /** Sends one request; `fromSender` marks the answers the sender sees (not a third party's replays). */
  const send = async (target: Delivery, signed: Signed, fromSender: boolean): Promise<Sent> => {
    const request: Sent = {
      delivery: target,
      unit: unitOf(target, signed),
      started: tick(),
      answered: -1,
      status: 0,
      code: undefined,
      retryAfter: null,
      run: undefined,
      reported: [],
    };
    requests.push(request);
    const got = await context.run(request, () => answer(signed));
    request.answered = tick();
    request.status = got.status;
    request.code = got.text === "" ? undefined : (JSON.parse(got.text) as { code: string }).code;
    request.retryAfter = got.retryAfter;
    if (fromSender && got.status === 204) target.delivered = true;
    return request;
  };

  const succeeded = (unit: string, before = Number.POSITIVE_INFINITY) =>
    requests.some((r) => r.unit === unit && r.run?.outcome === "ok" && r.run.ended! < before);

  /** A request sent alone: its answer is exactly the model's. */
  const alone = async (target: Delivery, signed: Signed, fromSender: boolean) => {
    const done = succeeded(unitOf(target, signed));
    const fails = target.failures > 0;
    const request = await send(target, signed, fromSender);
    const label = `${target.tag} alone (${done ? "done" : fails ? "to fail" : "to succeed"})`;
    if (done) {
      expect(request.run, label).toBeUndefined();
      if (target.id === undefined) {
        expect([request.status, request.code], label).toEqual([401, "ERR_WEBHOOK_REPLAYED"]);
      } else expect([request.status, request.code], label).toEqual([204, undefined]);
    } else {
      // Nothing holds it and nothing completed it: it runs, whatever ran (and failed) before.
      expect(request.run?.outcome, label).toBe(fails ? "failed" : "ok");
      expect(request.status, label).toBe(fails ? 500 : 204);
    }
  };

  try {
    for (const s of steps) {
      if (s.kind === "new") {
        const target: Delivery = {
          tag: `delivery-${deliveries.length}`,
          id: s.withId ? `id-${deliveries.length}` : undefined,
          failures: s.failures,
          last: undefined,
          delivered: false,
        };
        deliveries.push(target);
        byTag.set(target.tag, target);
        await alone(target, await sign(target), true);
        continue;
      }
      const target = deliveries[s.d % Math.max(1, deliveries.length)];
      if (target === undefined) continue;
      switch (s.kind) {
        case "fail":
          target.failures++;
          break;
        case "retry":
          // Without an id, a copy signed again after a 204 is a new webhook: an honest sender stops.
          if (target.id !== undefined || !target.delivered) await alone(target, await sign(target), true);
          break;
        case "replay":
          await alone(target, target.last!, false);
          break;
        case "concurrent": {
          const fresh = target.id !== undefined || !target.delivered;
          const first = fresh ? await sign(target) : target.last!;
          const second = fresh && s.resign && target.id !== undefined ? await sign(target) : first;
          const doneBefore = [first, second].every((signed) => succeeded(unitOf(target, signed)));
          const pair = await Promise.all([send(target, first, fresh), send(target, second, fresh)]);
          // Unless it was done already, one of the two ran it.
          if (!doneBefore)
            expect(
              pair.some((r) => r.run !== undefined),
              `${target.tag} concurrent`,
            ).toBe(true);
          break;
        }
      }
    }
    // The sender retries every delivery not yet answered 204 until it is: each planned failure is
    // one more 500, then a run succeeds.
    for (const target of deliveries) {
      for (let attempt = 0; !target.delivered; attempt++) {
        expect(attempt, `${target.tag} is never delivered`).toBeLessThanOrEqual(steps.length + 1);
        await alone(target, await sign(target), true);
      }
    }
  } finally {
    await receiver.close();
  }

  expect(problems).toEqual([]);
  expect(running.size).toBe(0);

  for (const request of requests) {
    const label = `${request.unit}, request at ${request.started}: ${request.status} ${request.code ?? ""}`;
    const { run } = request;
    if (run !== undefined) {
      // A run that threw is answered 500; one that returned 204, after its end.
      expect(run.outcome, label).toBeDefined();
      if (run.outcome === "failed") {
        expect([request.status, request.code], label).toEqual([500, "ERR_WEBHOOK_HANDLER_FAILED"]);
      } else {
        expect([request.status, request.code], label).toEqual([204, undefined]);
        expect(run.ended!, label).toBeLessThan(request.answered);
      }
    } else if (request.status === 204) {
      // Not run here: only once a run of the same delivery id had succeeded.
      expect(request.unit.startsWith("id:"), label).toBe(true);
      expect(succeeded(request.unit, request.answered), label).toBe(true);
    } else if (request.status === 401) {
      // An exact replay of a request without an id, once it had succeeded.
      expect(request.code, label).toBe("ERR_WEBHOOK_REPLAYED");
      expect(request.unit.startsWith("signature:"), label).toBe(true);
      expect(succeeded(request.unit, request.answered), label).toBe(true);
    } else {
      // A copy that came while another request of the same delivery was running it.
      expect([request.status, request.code], label).toEqual([409, "ERR_WEBHOOK_IN_PROGRESS"]);
      expect(request.retryAfter, label).toMatch(/^[1-9]\d*$/);
      const holder = requests.find(
        (other) =>
          other !== request &&
          other.unit === request.unit &&
          other.run !== undefined &&
          other.started < request.answered &&
          request.started < other.answered,
      );
      expect(holder, label).toBeDefined();
    }
    // Every non-2xx answer was told to onError once, with its status and code; a 204 was not.
    expect(request.reported, label).toEqual(
      request.status === 204
        ? []
        : [{ status: request.status, errorStatus: request.status, code: request.code }],
    );
  }

  // Handled successfully exactly once: each delivery id, and each signed request without one.
  const units = new Set(requests.map((request) => request.unit));
  for (const unit of units) {
    const ok = requests.filter((request) => request.unit === unit && request.run?.outcome === "ok").length;
    if (unit.startsWith("id:")) expect(ok, unit).toBe(1);
    else expect(ok, unit).toBeLessThanOrEqual(1);
  }
  for (const target of deliveries) {
    const ok = requests.filter((request) => request.delivery === target && request.run?.outcome === "ok");
    expect(ok.length, target.tag).toBeGreaterThanOrEqual(1);
    // Runs of one delivery never overlapped (checked in the handler too).
    const spans = requests
      .filter((request) => request.delivery === target && request.run !== undefined)
      .map((request) => [request.run!.started, request.run!.ended!] as const)
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0], target.tag).toBeGreaterThan(spans[i - 1]![1]);
  }
}

describe("the webhook receiver, for any sequence of deliveries, failures, retries, replays and copies", () => {
  it("handles each delivery successfully once, never before 204, never twice at once, and reports every refusal", async () => {
    await fc.assert(fc.asyncProperty(plan, check), { numRuns: 100 });
  });
});
