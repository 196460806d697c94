import { describe, expect, it } from "vitest";
import { GUARDED_BY_ITSELF, guardTelemetry } from "./guardTelemetry.js";

interface Probe {
  start(): { run<T>(fn: () => T): T; end(): string; readonly headers?: Record<string, string> };
}

describe("guardTelemetry", () => {
  it("leaves no telemetry as none, and refuses what is not telemetry, naming the option", () => {
    expect(guardTelemetry<Probe>(undefined, "caller:", "start")).toBeUndefined();
    for (const wrong of [null, 42, "otel", {}, { start: 1 }]) {
      expect(() => guardTelemetry(wrong as unknown as Probe, "caller:", "start")).toThrow(
        /^caller: telemetry must be an object with a start method, such as createOpenTelemetry\(\)/,
      );
    }
  });

  it("never throws: a method that throws returns undefined, in the handles it returns too", () => {
    const guarded = guardTelemetry<Probe>(
      {
        start: () => ({
          run: (fn) => fn(),
          end: () => {
            throw new Error("exporter down");
          },
          get headers(): Record<string, string> {
            throw new Error("getter");
          },
        }),
      },
      "caller:",
      "start",
    )!;
    const handle = guarded.start();
    expect(handle.end()).toBeUndefined();
    // A member whose getter throws, or that is missing, reads as a method that does nothing.
    expect(typeof handle.headers).toBe("function");
    expect((handle as unknown as { missing(): unknown }).missing()).toBeUndefined();
    const throwing = guardTelemetry<Probe>(
      {
        start: () => {
          throw new Error("no tracer");
        },
      },
      "caller:",
      "start",
    )!;
    expect(throwing.start()).toBeUndefined();
  });

  it("runs fn exactly once through run, whatever run does, and throws only what fn throws", () => {
    const runs: ((fn: () => unknown) => unknown)[] = [
      (fn) => fn(),
      () => {
        throw new Error("run broke before calling fn");
      },
      () => "forgot to call fn",
      (fn) => {
        fn();
        throw new Error("run broke after fn");
      },
    ];
    for (const run of runs) {
      const handle = guardTelemetry<Probe>(
        { start: () => ({ run, end: () => "" }) as unknown as ReturnType<Probe["start"]> },
        "caller:",
        "start",
      )!.start();
      let calls = 0;
      handle.run(() => calls++);
      expect(calls).toBe(1);
      expect(() =>
        handle.run(() => {
          throw new Error("the caller's own failure");
        }),
      ).toThrow("the caller's own failure");
    }
    const result = guardTelemetry<Probe>(
      { start: () => ({ run: (fn) => fn(), end: () => "" }) },
      "caller:",
      "start",
    )!
      .start()
      .run(() => 42);
    expect(result).toBe(42);
  });

  it("guards an instrumentation that only inherits the library's mark (a polluted Object.prototype)", () => {
    const prototype = Object.prototype as Record<symbol, unknown>;
    prototype[GUARDED_BY_ITSELF] = true;
    try {
      const guarded = guardTelemetry<Probe>(
        {
          start: () => {
            throw new Error("broken instrumentation");
          },
        },
        "caller:",
        "start",
      )!;
      expect(guarded.start()).toBeUndefined();
    } finally {
      delete prototype[GUARDED_BY_ITSELF];
    }
  });
});
