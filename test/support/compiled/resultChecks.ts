/**
 * What the hostile suites (compiledHostile.test.ts, compiledDocumentsHostile.test.ts) check of every
 * result, whatever the input: an error that behaves like one, output bounded and safe to log, data
 * that shares no object with the input, and what the contract with the reference compares.
 */
import { inspect, types } from "node:util";
import { expect } from "vitest";
import {
  EventValidationError,
  isEventValidationError,
  type SafeParseResult,
} from "../../../src/events/index.js";
import { canonical, reachableObjects } from "./snapshot.js";

// Characters that would forge or hide a log line, and lone surrogates; "\n" only separates the
// listed problems of a message, so it is checked in each issue's message instead.
export const unsafe =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** More than 40 characters of the input's "x…" strings or "k…" keys. */
export const longEcho = /x{41}|k{41}/;

/** The objects a test input is made of (proxies excepted, which are not walked). */
export function objectsOf(value: unknown): Set<object> {
  const out = new Set<object>();
  const visit = (node: unknown, depth: number) => {
    if (typeof node !== "object" || node === null || out.has(node) || depth > 64 || out.size > 10_000) return;
    out.add(node);
    // A proxy is not walked, nor a typed array or String object (millions of indexed members).
    if (types.isProxy(node) || ArrayBuffer.isView(node) || node instanceof String) return;
    if (Array.isArray(node) && node.length > 1000) return;
    for (const key of Object.keys(node)) {
      const descriptor = Object.getOwnPropertyDescriptor(node, key);
      if (descriptor !== undefined && "value" in descriptor) visit(descriptor.value, depth + 1);
    }
  };
  visit(value, 0);
  return out;
}

/** What a user does with a failed result's error; each must work and none may throw. */
export function expectBehavesLikeAnError(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  expect(error).toBeInstanceOf(EventValidationError);
  expect(isEventValidationError(error)).toBe(true);
  const e = error as EventValidationError;
  expect(e.name).toBe("EventValidationError");
  expect(String(e)).toMatch(/^EventValidationError: /);
  expect(typeof e.stack).toBe("string");
  expect(e.stack?.startsWith("EventValidationError")).toBe(true);
  expect(() => JSON.stringify({ success: false, error: e })).not.toThrow();
  expect(() => inspect(e)).not.toThrow();
  expect(() => inspect({ success: false, error: e }, { depth: 5 })).not.toThrow();
}

/** The promises of every result, whatever the input: shape, bounded and safe output, a copy for data. */
export function expectSaneResult(result: SafeParseResult<unknown>, inputObjects: ReadonlySet<object>): void {
  expect(typeof result.success).toBe("boolean");
  if (result.success) {
    for (const object of reachableObjects(result.data)) expect(inputObjects.has(object)).toBe(false);
    return;
  }
  const { error } = result;
  expectBehavesLikeAnError(error);
  expect(error.issues.length).toBeGreaterThan(0);
  expect(error.issues.length).toBeLessThanOrEqual(100);
  expect(error.message.length).toBeLessThan(6000);
  expect(error.message).not.toMatch(unsafe);
  expect(error.message).not.toMatch(longEcho);
  if (error.eventType !== undefined) {
    expect(error.eventType.length).toBeLessThanOrEqual(40 * 6 + 1);
    expect(error.eventType).not.toMatch(unsafe);
  }
  for (const issue of error.issues) {
    expect(typeof issue.code).toBe("string");
    expect(issue.message).not.toMatch(unsafe);
    expect(issue.message).not.toMatch(/\n/);
    expect(issue.message).not.toMatch(longEcho);
    expect(issue.message.length).toBeLessThan(600);
    expect(issue.pointer.length).toBeLessThanOrEqual(256);
    expect(issue.pointer).not.toMatch(unsafe);
    for (const segment of issue.path) {
      expect(String(segment)).not.toMatch(unsafe);
      expect(String(segment).length).toBeLessThanOrEqual(256);
    }
  }
}

/** What the contract with the reference compares of a result. */
export type Comparable =
  | { readonly success: true; readonly data: unknown }
  | {
      readonly success: false;
      readonly code: string;
      readonly eventType: string | undefined;
      readonly message: string;
      readonly omittedIssues: number;
      readonly issues: readonly unknown[];
    };

export function comparable(result: SafeParseResult<unknown>): Comparable {
  if (result.success) {
    try {
      return { success: true, data: canonical(result.data) };
    } catch {
      // The reference returns a JSON member as given (a proxy stays one): only its verdict counts.
      return { success: true, data: "unreadable" };
    }
  }
  const { error } = result;
  return {
    success: false,
    code: error.code,
    eventType: error.eventType,
    message: error.message,
    omittedIssues: error.omittedIssues,
    issues: error.issues.map(({ code, path, pointer, message, params }) => ({
      code,
      path,
      pointer,
      message,
      params,
    })),
  };
}

/** Runs `work` with `key` as an enumerable member of every object; always cleans up. */
export function polluted(key: string, value: unknown, work: () => void): void {
  (Object.prototype as Record<string, unknown>)[key] = value;
  try {
    work();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
  expect(key in {}).toBe(false);
}
