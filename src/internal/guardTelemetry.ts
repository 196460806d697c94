/**
 * Instrumentation is the operator's code (or `createOpenTelemetry()`'s): it must never change an
 * answer. {@link guardTelemetry} gives a view of it whose methods never throw: a method that throws
 * returns `undefined` (the caller reads every result with `?.`), a member that is missing or whose
 * getter throws reads as a method that does nothing (callers check the type of the data members
 * they read, `headers` and `trace`), objects its methods return (the handles of spans) are guarded
 * too, and `run(fn)` always runs `fn` exactly once, throwing what `fn` throws and nothing else.
 */

import { runExactlyOnce } from "./runExactlyOnce.js";

/**
 * Marks an instrumentation that keeps these promises itself (`createOpenTelemetry()`'s: the
 * OpenTelemetry API never throws): it is used as it is, without the guard's cost on every call.
 */
export const GUARDED_BY_ITSELF: unique symbol = Symbol.for("messaging-events.telemetry.guardedByItself");

const nothing = (): undefined => undefined;
const runAlone = (fn: () => unknown): unknown => fn();

/** An instrumentation's `run`, through which `fn` runs exactly once ({@link runExactlyOnce}). */
function guardedRun(run: (fn: () => unknown) => unknown, self: object) {
  return (fn: () => unknown): unknown => runExactlyOnce((once) => run.call(self, once), fn);
}

function guard<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      let value: unknown;
      try {
        value = Reflect.get(object, key);
      } catch {
        value = undefined;
      }
      if (key === "run") {
        return typeof value === "function"
          ? guardedRun(value as (fn: () => unknown) => unknown, object)
          : runAlone;
      }
      if (value === undefined) return nothing;
      if (typeof value !== "function") return value;
      return (...args: unknown[]): unknown => {
        try {
          const result: unknown = Reflect.apply(value as (...args: unknown[]) => unknown, object, args);
          return typeof result === "object" && result !== null ? guard(result) : result;
        } catch {
          return undefined;
        }
      };
    },
  });
}

/**
 * Checks an instrumentation option and guards it: `undefined` stays `undefined` (nothing is
 * instrumented, nothing is paid); anything else must be an object with the method `start`, else a
 * `TypeError` that names the option and says where to get one.
 */
export function guardTelemetry<T extends object>(
  telemetry: T | undefined,
  caller: string,
  start: keyof T & string,
): T | undefined {
  if (telemetry === undefined) return undefined;
  if (
    (typeof telemetry !== "object" && typeof telemetry !== "function") ||
    telemetry === null ||
    typeof (telemetry as Record<string, unknown>)[start] !== "function"
  ) {
    throw new TypeError(
      `${caller} telemetry must be an object with a ${start} method, such as createOpenTelemetry() from messaging-events/opentelemetry makes`,
    );
  }
  return guardedByItself(telemetry) ? telemetry : guard(telemetry);
}

/**
 * Whether the instrumentation carries the mark itself: an own member only (a mark inherited from a
 * polluted `Object.prototype` does not count), and `false` for one that cannot be asked.
 */
function guardedByItself(telemetry: object): boolean {
  try {
    return Object.hasOwn(telemetry, GUARDED_BY_ITSELF);
  } catch {
    return false;
  }
}
