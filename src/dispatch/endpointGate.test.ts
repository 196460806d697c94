import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CircuitBreakerSettings,
  type CircuitState,
  CONCURRENCY_RETRY_MS,
  createEndpointGate,
  type EndpointGate,
  type EndpointLimits,
  type GateTicket,
  type GateVerdict,
} from "./endpointGate.js";

const open: EndpointLimits = { concurrency: Infinity, ratePerSecond: undefined };
const breaker: CircuitBreakerSettings = { failureThreshold: 3, openMs: 1_000, maxOpenMs: 4_000 };

type Transition = readonly [string, CircuitState, number | undefined];

/** A gate on a clock the test moves, with its transitions recorded. */
function setup(settings: CircuitBreakerSettings | undefined = breaker) {
  const clock = { now: 0 };
  const transitions: Transition[] = [];
  const gate = createEndpointGate({
    breaker: settings,
    now: () => clock.now,
    onCircuitChange: (id, state, reopensAt) => transitions.push([id, state, reopensAt]),
  });
  const admit = (limits: EndpointLimits = open, id = "a") => gate.admit(id, limits, clock.now);
  return { clock, transitions, gate, admit };
}

function ticketOf(verdict: GateVerdict): GateTicket {
  if (!verdict.admitted) throw new Error(`refused: ${verdict.why} until ${verdict.retryAt}`);
  return verdict.ticket;
}

const refusal = (verdict: GateVerdict) => (verdict.admitted ? "admitted" : [verdict.why, verdict.retryAt]);

/** Admits and finishes `count` attempts with `outcome`. */
function run(gate: EndpointGate, now: number, count: number, outcome: "success" | "failure", id = "a") {
  for (let index = 0; index < count; index++) ticketOf(gate.admit(id, open, now)).finish(outcome);
}

describe("createEndpointGate: concurrency", () => {
  it.each([
    [1, 1],
    [3, 3],
    [0, 1],
    [2.5, 3],
  ])(
    "concurrency %s admits %s at once, then asks to come back after CONCURRENCY_RETRY_MS",
    (limit, admitted) => {
      const { admit, clock } = setup(undefined);
      clock.now = 5_000;
      const limits = { concurrency: limit, ratePerSecond: undefined };
      for (let index = 0; index < admitted; index++) expect(admit(limits).admitted).toBe(true);
      expect(refusal(admit(limits))).toEqual(["concurrency", 5_000 + CONCURRENCY_RETRY_MS]);
    },
  );

  it("keeps endpoints apart", () => {
    const { admit } = setup(undefined);
    const one = { concurrency: 1, ratePerSecond: undefined };
    expect(admit(one, "a").admitted).toBe(true);
    expect(admit(one, "b").admitted).toBe(true);
    expect(admit(one, "a").admitted).toBe(false);
  });

  it("frees a slot once per ticket: finish is idempotent", () => {
    const { admit } = setup(undefined);
    const two = { concurrency: 2, ratePerSecond: undefined };
    const first = ticketOf(admit(two));
    ticketOf(admit(two));
    first.finish("success");
    first.finish("success");
    first.finish("failure");
    expect(admit(two).admitted).toBe(true);
    expect(admit(two).admitted).toBe(false);
  });

  it("never has more tickets out than the limit, and refuses only at the limit", () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("admit" as const),
        id: fc.constantFrom("a", "b", "c"),
        concurrency: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({ kind: fc.constant("finish" as const), pick: fc.nat(), ok: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const gate = createEndpointGate({ breaker: undefined });
        const tickets: { id: string; ticket: GateTicket; done: boolean }[] = [];
        const out = (id: string) => tickets.filter((entry) => entry.id === id && !entry.done).length;
        for (const [now, step] of ops.entries()) {
          if (step.kind === "admit") {
            const before = out(step.id);
            const verdict = gate.admit(
              step.id,
              { concurrency: step.concurrency, ratePerSecond: undefined },
              now,
            );
            expect(verdict.admitted).toBe(before < step.concurrency);
            if (verdict.admitted) {
              tickets.push({ id: step.id, ticket: verdict.ticket, done: false });
              expect(out(step.id)).toBeLessThanOrEqual(step.concurrency);
            }
          } else if (tickets.length > 0) {
            // Picks finished tickets too: finishing twice must free nothing more.
            const entry = tickets[step.pick % tickets.length]!;
            entry.ticket.finish(step.ok ? "success" : "failure");
            entry.done = true;
          }
        }
      }),
    );
  });
});

describe("createEndpointGate: rate", () => {
  it.each([
    // rate, burst admitted at t = 0, retryAt of the refusal that follows
    [2, 2, 500],
    [0.5, 1, 2_000],
    [2.5, 3, 400],
    [1_000, 1_000, 1],
    [3, 3, 334],
  ])("%s per second admits a burst of %s, then the next token is due at %s ms", (rate, burst, due) => {
    const { admit, clock } = setup(undefined);
    const limits = { concurrency: Infinity, ratePerSecond: rate };
    for (let index = 0; index < burst; index++) ticketOf(admit(limits)).finish("success");
    expect(refusal(admit(limits))).toEqual(["rate", due]);
    clock.now = due - 1;
    expect(admit(limits).admitted).toBe(false);
    clock.now = due;
    expect(admit(limits).admitted).toBe(true);
  });

  it.each([
    ["undefined", undefined],
    ["0", 0],
    ["a negative rate", -1],
    ["NaN", Number.NaN],
    ["Infinity", Infinity],
  ])("%s is no limit", (_name, ratePerSecond) => {
    const { admit } = setup(undefined);
    for (let index = 0; index < 100; index++) {
      expect(admit({ concurrency: Infinity, ratePerSecond }).admitted).toBe(true);
    }
  });

  it("takes no token when concurrency refuses", () => {
    const { admit } = setup(undefined);
    const limits = { concurrency: 1, ratePerSecond: 2 };
    const first = ticketOf(admit(limits));
    expect(refusal(admit(limits))).toEqual(["concurrency", CONCURRENCY_RETRY_MS]);
    first.finish("success");
    expect(admit(limits).admitted).toBe(true);
  });

  it("never admits more than capacity + rate × elapsed in any window, and keeps its word on retryAt", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }).map((tenths) => tenths / 10),
        fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 150 }),
        (rate, steps) => {
          const { admit, clock } = setup(undefined);
          const limits = { concurrency: Infinity, ratePerSecond: rate };
          const admitted: number[] = [];
          for (const step of steps) {
            clock.now += step;
            const now = clock.now;
            const verdict = admit(limits);
            if (verdict.admitted) {
              admitted.push(now);
              verdict.ticket.finish("success");
            } else {
              expect(verdict.why).toBe("rate");
              expect(verdict.retryAt).toBeGreaterThan(now);
              // What retryAt promises, on a copy of the history.
              const replay = setup(undefined);
              for (const at of admitted) {
                replay.clock.now = at;
                ticketOf(replay.admit(limits)).finish("success");
              }
              replay.clock.now = verdict.retryAt;
              expect(replay.admit(limits).admitted).toBe(true);
            }
          }
          const burst = Math.max(1, Math.ceil(rate));
          for (let from = 0; from < admitted.length; from++) {
            for (let to = from; to < admitted.length; to++) {
              const allowed = burst + (rate * (admitted[to]! - admitted[from]!)) / 1000;
              expect(to - from + 1).toBeLessThanOrEqual(allowed + 1e-6);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("createEndpointGate: circuit breaker", () => {
  it("opens after failureThreshold consecutive failures, probes once, doubles up to maxOpenMs, closes on a probe's success", () => {
    const { admit, clock, gate, transitions } = setup();
    run(gate, 0, 2, "failure");
    run(gate, 0, 1, "success");
    run(gate, 0, 2, "failure");
    expect(gate.state("a")).toBe("closed");
    clock.now = 100;
    run(gate, 100, 1, "failure");
    expect(gate.state("a")).toBe("open");
    expect(refusal(admit())).toEqual(["circuit-open", 1_100]);

    for (const openFor of [2_000, 4_000, 4_000]) {
      clock.now = transitions.at(-1)![2]!;
      const probe = ticketOf(admit());
      expect(gate.state("a")).toBe("half-open");
      expect(refusal(admit())).toEqual(["circuit-open", clock.now + 1_000]);
      clock.now += 10;
      probe.finish("failure");
      expect(transitions.at(-1)).toEqual(["a", "open", clock.now + openFor]);
    }
    clock.now = transitions.at(-1)![2]!;
    ticketOf(admit()).finish("success");
    expect(gate.state("a")).toBe("closed");
    // Back to openMs the next time.
    run(gate, clock.now, 3, "failure");
    expect(transitions.at(-1)).toEqual(["a", "open", clock.now + 1_000]);
  });

  it("waits min(openMs, 1 s) behind a probe in flight", () => {
    const { admit, clock, gate } = setup({ failureThreshold: 1, openMs: 300, maxOpenMs: 300 });
    run(gate, 0, 1, "failure");
    clock.now = 300;
    ticketOf(admit());
    expect(refusal(admit())).toEqual(["circuit-open", 600]);
  });

  it("refuses an open circuit before concurrency or rate, without taking a token", () => {
    const { admit, clock, gate } = setup({ failureThreshold: 1, openMs: 1_000, maxOpenMs: 1_000 });
    const limits = { concurrency: 1, ratePerSecond: 1 };
    ticketOf(admit(limits)).finish("failure");
    clock.now = 10;
    expect(refusal(admit(limits))).toEqual(["circuit-open", 1_000]);
    clock.now = 1_000;
    expect(admit(limits).admitted).toBe(true);
    expect(gate.state("a")).toBe("half-open");
  });

  it("stays open, with the other limit's refusal, when the probe would exceed concurrency", () => {
    const { admit, clock, gate } = setup({ failureThreshold: 1, openMs: 1_000, maxOpenMs: 1_000 });
    const one = { concurrency: 1, ratePerSecond: undefined };
    const slow = ticketOf(admit(one));
    ticketOf(admit({ concurrency: 2, ratePerSecond: undefined })).finish("failure");
    clock.now = 1_000;
    expect(refusal(admit(one))).toEqual(["concurrency", 1_000 + CONCURRENCY_RETRY_MS]);
    expect(gate.state("a")).toBe("open");
    slow.finish("success");
    expect(gate.state("a")).toBe("open");
    expect(admit(one).admitted).toBe(true);
    expect(gate.state("a")).toBe("half-open");
  });

  it("lets only the probe decide: attempts begun before the circuit opened count for nothing", () => {
    const { admit, clock, gate } = setup({ failureThreshold: 2, openMs: 1_000, maxOpenMs: 8_000 });
    const early = [1, 2, 3, 4].map(() => ticketOf(admit()));
    early[0]!.finish("failure");
    early[1]!.finish("failure");
    expect(gate.state("a")).toBe("open");
    early[2]!.finish("success");
    expect(gate.state("a")).toBe("open");
    clock.now = 1_000;
    const probe = ticketOf(admit());
    early[3]!.finish("success");
    expect(gate.state("a")).toBe("half-open");
    probe.finish("success");
    expect(gate.state("a")).toBe("closed");
  });

  it("ignores, once closed again, a failure from before it opened", () => {
    const { admit, clock, gate } = setup({ failureThreshold: 1, openMs: 1_000, maxOpenMs: 8_000 });
    const late = ticketOf(admit());
    ticketOf(admit()).finish("failure");
    clock.now = 1_000;
    ticketOf(admit()).finish("success");
    late.finish("failure");
    expect(gate.state("a")).toBe("closed");
  });

  it("reports transitions in order, and a hook that throws or rejects breaks nothing", () => {
    const seen: Transition[] = [];
    const hooks = [
      (...change: Transition) => {
        seen.push(change);
        throw new Error("hook failed");
      },
      async (...change: Transition) => {
        seen.push(change);
        throw new Error("hook rejected");
      },
    ];
    for (const hook of hooks) {
      seen.length = 0;
      let now = 0;
      const gate = createEndpointGate({ breaker, onCircuitChange: hook, now: () => now });
      run(gate, now, 3, "failure");
      now = 1_000;
      ticketOf(gate.admit("a", open, now)).finish("failure");
      now = 3_000;
      ticketOf(gate.admit("a", open, now)).finish("success");
      expect(seen).toEqual([
        ["a", "open", 1_000],
        ["a", "half-open", undefined],
        ["a", "open", 3_000],
        ["a", "half-open", undefined],
        ["a", "closed", undefined],
      ]);
    }
  });

  it("sees the settled state from inside the hook", () => {
    const states: CircuitState[] = [];
    const gate: EndpointGate = createEndpointGate({
      breaker: { failureThreshold: 1, openMs: 10, maxOpenMs: 10 },
      now: () => 0,
      onCircuitChange: (id) => states.push(gate.state(id)),
    });
    ticketOf(gate.admit("a", open, 0)).finish("failure");
    ticketOf(gate.admit("a", open, 10)).finish("success");
    expect(states).toEqual(["open", "half-open", "closed"]);
  });

  it("forgets an endpoint: closed again, reported, and its old tickets count for nothing", () => {
    const { admit, gate, transitions } = setup({ failureThreshold: 1, openMs: 1_000, maxOpenMs: 1_000 });
    const one = { concurrency: 1, ratePerSecond: undefined };
    const old = ticketOf(admit(one));
    gate.forget("a");
    expect(transitions).toEqual([]);
    const fresh = ticketOf(admit(one));
    old.finish("failure");
    expect(gate.state("a")).toBe("closed");
    expect(admit(one).admitted).toBe(false);
    fresh.finish("failure");
    expect(gate.state("a")).toBe("open");
    gate.forget("a");
    expect(gate.state("a")).toBe("closed");
    expect(transitions.map(([, state]) => state)).toEqual(["open", "closed"]);
    gate.forget("never-seen");
  });

  it.each([
    ["failureThreshold 0", { failureThreshold: 0, openMs: 1, maxOpenMs: 1 }],
    ["openMs 0", { failureThreshold: 1, openMs: 0, maxOpenMs: 1 }],
    ["openMs NaN", { failureThreshold: 1, openMs: Number.NaN, maxOpenMs: 1 }],
    ["maxOpenMs below openMs", { failureThreshold: 1, openMs: 10, maxOpenMs: 5 }],
    ["maxOpenMs Infinity", { failureThreshold: 1, openMs: 10, maxOpenMs: Infinity }],
  ])("refuses breaker settings with %s", (_name, settings) => {
    expect(() => createEndpointGate({ breaker: settings })).toThrow(TypeError);
  });

  /** The breaker as the brief states it, with nothing else. */
  function referenceBreaker(settings: CircuitBreakerSettings) {
    let circuit: CircuitState = "closed";
    let failures = 0;
    let openMs = settings.openMs;
    let reopensAt = 0;
    let period = 0;
    let probe: number | undefined;
    const issued: { period: number; done: boolean }[] = [];
    const log: [CircuitState, number | undefined][] = [];
    const become = (next: CircuitState, at?: number) => {
      circuit = next;
      period++;
      log.push([next, at]);
    };
    return {
      log,
      state: () => circuit,
      admit(now: number): number | ["circuit-open", number] {
        if (circuit === "half-open") return ["circuit-open", now + Math.min(settings.openMs, 1_000)];
        if (circuit === "open" && now < reopensAt) return ["circuit-open", reopensAt];
        issued.push({ period, done: false });
        if (circuit === "open") {
          probe = issued.length - 1;
          become("half-open");
        }
        return issued.length - 1;
      },
      finish(ticket: number, success: boolean, now: number) {
        const entry = issued[ticket]!;
        if (entry.done) return;
        entry.done = true;
        if (probe === ticket) {
          probe = undefined;
          if (success) {
            failures = 0;
            openMs = settings.openMs;
            become("closed");
          } else {
            openMs = Math.min(openMs * 2, settings.maxOpenMs);
            reopensAt = now + openMs;
            become("open", reopensAt);
          }
        } else if (circuit === "closed" && entry.period === period) {
          failures = success ? 0 : failures + 1;
          if (failures >= settings.failureThreshold) {
            failures = 0;
            openMs = settings.openMs;
            reopensAt = now + openMs;
            become("open", reopensAt);
          }
        }
      },
    };
  }

  it("follows the reference model", () => {
    const settings = fc.record({
      failureThreshold: fc.integer({ min: 1, max: 4 }),
      openMs: fc.integer({ min: 1, max: 2_000 }),
      factor: fc.integer({ min: 1, max: 8 }),
    });
    const op = fc.record({
      wait: fc.integer({ min: 0, max: 1_500 }),
      admit: fc.boolean(),
      pick: fc.nat(),
      ok: fc.boolean(),
    });
    fc.assert(
      fc.property(settings, fc.array(op, { maxLength: 200 }), ({ failureThreshold, openMs, factor }, ops) => {
        const config = { failureThreshold, openMs, maxOpenMs: openMs * factor };
        const { clock, gate, transitions } = setup(config);
        const model = referenceBreaker(config);
        const tickets: GateTicket[] = [];
        for (const step of ops) {
          clock.now += step.wait;
          if (step.admit) {
            const expected = model.admit(clock.now);
            const verdict = gate.admit("a", open, clock.now);
            if (typeof expected === "number") tickets[expected] = ticketOf(verdict);
            else expect(refusal(verdict)).toEqual(expected);
          } else if (tickets.length > 0) {
            const pick = step.pick % tickets.length;
            model.finish(pick, step.ok, clock.now);
            tickets[pick]!.finish(step.ok ? "success" : "failure");
          }
          expect(gate.state("a")).toBe(model.state());
          expect(transitions.map(([, state, at]) => [state, at])).toEqual(model.log);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("createEndpointGate: clocks that jump", () => {
  it("waits no longer than openMs when the clock went back", () => {
    const { admit, clock, gate } = setup({ failureThreshold: 1, openMs: 1_000, maxOpenMs: 1_000 });
    clock.now = 1_000_000;
    ticketOf(admit()).finish("failure");
    clock.now = 0;
    expect(refusal(admit())).toEqual(["circuit-open", 1_000]);
    clock.now = 1_000;
    expect(admit().admitted).toBe(true);
    expect(gate.state("a")).toBe("half-open");
  });

  it("waits no longer than one token when the clock went back", () => {
    const { admit, clock } = setup(undefined);
    const limits = { concurrency: Infinity, ratePerSecond: 1 };
    clock.now = 1_000_000;
    expect(admit(limits).admitted).toBe(true);
    clock.now = 0;
    expect(refusal(admit(limits))).toEqual(["rate", 1_000]);
  });

  it("never answers NaN or a retryAt before now, whatever the order of times", () => {
    const op = fc.record({
      at: fc.integer({ min: -1_000_000, max: 1_000_000 }),
      id: fc.constantFrom("a", "b"),
      concurrency: fc.integer({ min: 1, max: 3 }),
      rate: fc.option(fc.double({ min: 0.01, max: 100, noNaN: true }), { nil: undefined }),
      pick: fc.nat(),
      ok: fc.boolean(),
      admit: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const { clock, gate, transitions } = setup({ failureThreshold: 2, openMs: 500, maxOpenMs: 5_000 });
        const tickets: GateTicket[] = [];
        for (const step of ops) {
          clock.now = step.at;
          if (step.admit) {
            const verdict = gate.admit(
              step.id,
              { concurrency: step.concurrency, ratePerSecond: step.rate },
              step.at,
            );
            if (verdict.admitted) tickets.push(verdict.ticket);
            else {
              expect(Number.isFinite(verdict.retryAt)).toBe(true);
              expect(verdict.retryAt).toBeGreaterThanOrEqual(step.at);
            }
          } else if (tickets.length > 0) {
            tickets[step.pick % tickets.length]!.finish(step.ok ? "success" : "failure");
            const last = transitions.at(-1);
            if (last?.[1] === "open") expect(Number.isFinite(last[2])).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("createEndpointGate: memory", () => {
  it("keeps nothing for a million endpoints that each passed through once", () => {
    const gate = createEndpointGate({ breaker, now: () => 0 });
    for (let index = 0; index < 1_000_000; index++) {
      ticketOf(gate.admit(`endpoint-${index}`, { concurrency: 4, ratePerSecond: undefined }, 0)).finish(
        "success",
      );
    }
    expect(gate.size()).toBe(0);
  });

  it("drops rate-limited endpoints once their buckets are full again", () => {
    let now = 0;
    const gate = createEndpointGate({ breaker, now: () => now });
    const limits = { concurrency: 4, ratePerSecond: 10 };
    let largest = 0;
    for (let index = 0; index < 1_000_000; index++) {
      now = index; // one endpoint per millisecond; each bucket is full again 100 ms later
      ticketOf(gate.admit(`endpoint-${index}`, limits, now)).finish("success");
      largest = Math.max(largest, gate.size());
    }
    expect(largest).toBeLessThan(1_000);
    now += 100;
    for (let index = 0; index < 1_000; index++) gate.admit("last", limits, now);
    expect(gate.size()).toBe(1);
  });

  it("keeps what it must: tickets out, failures counted, an open circuit", () => {
    const gate = createEndpointGate({ breaker, now: () => 0 });
    ticketOf(gate.admit("in-flight", open, 0));
    ticketOf(gate.admit("failing", open, 0)).finish("failure");
    run(gate, 0, 3, "failure", "open");
    ticketOf(gate.admit("recovered", open, 0)).finish("failure");
    ticketOf(gate.admit("recovered", open, 0)).finish("success");
    for (let index = 0; index < 1_000; index++) ticketOf(gate.admit(`x${index}`, open, 0)).finish("success");
    expect(gate.size()).toBe(3);
    expect(gate.state("open")).toBe("open");
  });
});
