import { describe, expect, it } from "vitest";
import { type InternalRetryOptions, MAX_RETRIES, normalizeRetryOptions } from "./normalizeRetryOptions.js";

const defaults: InternalRetryOptions<number> = {
  delaysMs: [100, 200, 400],
  jitter: 0.5,
  maxRetryAfterMs: 5_000,
};
const normalize = (value: unknown) => normalizeRetryOptions(value, defaults, "create:");

/** The message of the TypeError a value gives. */
function refusal(value: unknown): string {
  let thrown: unknown;
  try {
    normalize(value);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  return (thrown as TypeError).message;
}

describe("normalizeRetryOptions", () => {
  it("takes every default when nothing is given", () => {
    expect(normalize(undefined)).toEqual(defaults);
    expect(normalize({})).toEqual(defaults);
  });

  it("takes each missing member at its own default", () => {
    expect(normalize({ jitter: 0 })).toEqual({ ...defaults, jitter: 0 });
    expect(normalize({ delaysMs: [1_000] })).toEqual({ ...defaults, delaysMs: [1_000] });
    expect(normalize({ maxRetryAfterMs: Number.POSITIVE_INFINITY })).toEqual({
      ...defaults,
      maxRetryAfterMs: Number.POSITIVE_INFINITY,
    });
  });

  it("keeps a default of undefined for maxRetryAfterMs (the caller's own rule)", () => {
    const own = { ...defaults, maxRetryAfterMs: undefined };
    expect(normalizeRetryOptions({ jitter: 0.1 }, own, "create:").maxRetryAfterMs).toBeUndefined();
    expect(normalizeRetryOptions({ maxRetryAfterMs: 0 }, own, "create:").maxRetryAfterMs).toBe(0);
  });

  it("accepts [] (a single attempt), zero waits and fractions of a millisecond", () => {
    expect(normalize({ delaysMs: [] }).delaysMs).toEqual([]);
    expect(normalize({ delaysMs: [0, 0.5, 36_000_000] }).delaysMs).toEqual([0, 0.5, 36_000_000]);
    expect(normalize({ delaysMs: Array(MAX_RETRIES).fill(1) }).delaysMs).toHaveLength(MAX_RETRIES);
  });

  it("copies the list, so that changing it later changes nothing", () => {
    const delaysMs = [10, 20];
    const settings = normalize({ delaysMs });
    delaysMs.push(30);
    expect(settings.delaysMs).toEqual([10, 20]);
  });

  it.each([0, 0.2, 0.999])("accepts a jitter of %d", (jitter) => {
    expect(normalize({ jitter }).jitter).toBe(jitter);
  });

  it.each([
    [
      { delaysMs: [100, -1] },
      /^create: retry\.delaysMs must be a list of at most 100 waits in milliseconds, each a finite number >= 0: item 1 is -1$/,
    ],
    [{ delaysMs: [Number.NaN] }, /^create: retry\.delaysMs must be .*: item 0 is NaN$/],
    [{ delaysMs: [Number.POSITIVE_INFINITY] }, /^create: retry\.delaysMs must be .*: item 0 is Infinity$/],
    [{ delaysMs: [1e15] }, /^create: retry\.delaysMs must be .*: item 0 is 1000000000000000$/],
    [{ delaysMs: ["100"] }, /^create: retry\.delaysMs must be .*: item 0 is "100"$/],
    [{ delaysMs: 3 }, /^create: retry\.delaysMs must be a list .*, not 3$/],
    [
      { delaysMs: Array(MAX_RETRIES + 1).fill(1) },
      /^create: retry\.delaysMs must be a list of at most 100 .*, not 101 of them$/,
    ],
    [{ jitter: 1 }, /^create: retry\.jitter must be a number from 0 to below 1 \(0\.2 is ±20%\), not 1$/],
    [{ jitter: -0.1 }, /^create: retry\.jitter must be .*, not -0\.1$/],
    [{ jitter: Number.NaN }, /^create: retry\.jitter must be .*, not NaN$/],
    [{ jitter: "0.2" }, /^create: retry\.jitter must be .*, not "0\.2"$/],
    [
      { maxRetryAfterMs: -1 },
      /^create: retry\.maxRetryAfterMs must be a number of milliseconds >= 0 \(Infinity for no limit\), not -1$/,
    ],
    [{ maxRetryAfterMs: Number.NaN }, /^create: retry\.maxRetryAfterMs must be .*, not NaN$/],
    [
      { retries: 3 },
      /^create: retry has no member "retries": it takes delaysMs \(the waits before each retry\), jitter and maxRetryAfterMs$/,
    ],
    [{ schedule: [1_000] }, /^create: retry has no member "schedule"/],
    [null, /^create: retry must be an object, not null$/],
    [[100, 200], /^create: retry must be an object, not an array$/],
    [5, /^create: retry must be an object, not 5$/],
  ])("refuses %j, naming the option", (value, pattern) => {
    expect(refusal(value)).toMatch(pattern);
  });
});
