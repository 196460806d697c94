import { describe, expect, it } from "vitest";
import { createUlidGenerator, ULID_ALPHABET, ulidTime } from "./createUlidGenerator.js";

describe("createUlidGenerator", () => {
  it("makes 26 characters of Crockford base32 that fit the id type and carry their time", () => {
    const next = createUlidGenerator(() => 1_469_918_176_385);
    const id = next();
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(id.slice(0, 10)).toBe("01ARYZ6S41");
    expect(ulidTime(id)).toBe(1_469_918_176_385);
    expect(ULID_ALPHABET).toHaveLength(32);
  });

  it("sorts in creation order: within one millisecond, and when the clock steps back", () => {
    const times = [5, 5, 5, 4, 9, 9, 2];
    let call = 0;
    const next = createUlidGenerator(() => times[call++]!);
    const ids = times.map(() => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws fresh randomness for each new millisecond", () => {
    let now = 1_000;
    const next = createUlidGenerator(() => now++);
    const randomParts = new Set(Array.from({ length: 200 }, () => next().slice(10)));
    expect(randomParts.size).toBe(200);
  });

  it("ulidTime refuses what is not a ULID", () => {
    expect(ulidTime("01ARZ3NDEKTSV4RRFFQ69G5FAI")).toBeUndefined();
    expect(ulidTime("81ARZ3NDEKTSV4RRFFQ69G5FAV")).toBeUndefined();
    expect(ulidTime("short")).toBeUndefined();
  });
});
