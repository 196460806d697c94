/** The ways a request can go wrong on purpose, as the real world does. */
export type ChaosFailure = "503" | "429" | "drop" | "slow";

/** Every failure, picked with equal chance. */
export const chaosFailures: readonly ChaosFailure[] = ["503", "429", "drop", "slow"];

/** A small seeded generator (mulberry32): the same seed gives the same failures, run after run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Decides, per request, whether it fails and how: a share `rate` of them (0 to 1) fails, each with
 * one of {@link chaosFailures}: `503` and `429` (with `Retry-After: 1`) are answered before the
 * request is handled; `drop` handles it (the event is created) and then closes the connection
 * without an answer, so only a retry with the same idempotency key recovers the response; `slow`
 * handles it and answers after 1 to 3 seconds.
 */
export function createChaos(rate: number, random: () => number): () => ChaosFailure | undefined {
  return () => {
    if (rate <= 0 || random() >= rate) return undefined;
    return chaosFailures[Math.min(Math.floor(random() * chaosFailures.length), chaosFailures.length - 1)];
  };
}
