/**
 * A small benchmark harness for shared, noisy machines: contenders of one case run in alternating
 * slices of CPU time, many rounds, and the median of each is compared with the baseline measured in
 * the same run. Only the ratios are meant to be compared across runs.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface Contender {
  readonly name: string;
  /** Validates every item once; returns a count so the work cannot be optimised away. */
  readonly run: () => number;
}

/** A contender whose work is asynchronous (Web Crypto). */
export interface AsyncContender {
  readonly name: string;
  /** Does the work once. */
  readonly run: () => Promise<unknown>;
}

export interface CaseResult {
  readonly name: string;
  readonly items: number;
  readonly results: { name: string; opsPerSecond: number; ratio: number }[];
}

/**
 * A full garbage collection, so that every case starts on a compacted heap. Without it the first
 * case ran on the heap the inputs were generated on (fast-check leaves much garbage around them,
 * in old space), where building objects was two to four times slower in some processes and not in
 * others, until the engine's own first full collection.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

// Short slices, many rounds: contenders alternate every few dozen milliseconds, so that a change
// in the machine's speed (other processes, a neighbour on the host) falls on all of them alike.
const SLICE_MS = 40;
const ROUNDS = 31;

/**
 * This process's CPU time in milliseconds: unlike the wall clock, it does not count the time other
 * processes hold the cores, which on a shared machine would be charged to whichever contender was
 * running.
 */
function cpuTime(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function measure(contender: Contender, items: number): number {
  let operations = 0;
  let sink = 0;
  const start = cpuTime();
  let elapsed = 0;
  while (elapsed < SLICE_MS) {
    sink += contender.run();
    operations += items;
    elapsed = cpuTime() - start;
  }
  if (sink < 0) console.log(sink);
  return (operations / elapsed) * 1000;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// A small seeded generator (mulberry32): the order of each round is random, yet the same on
// every run.
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(values: T[], random: () => number): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  return values;
}

/** Runs one case. The last contender is the baseline that ratios are computed against. */
export function runCase(name: string, items: number, contenders: readonly Contender[]): CaseResult {
  collectGarbage();
  // Warm-up: each contender in turn, twice, for a few slices, so that every one is compiled and
  // the garbage of what ran before (the agreement proof, the previous case) is collected.
  for (let pass = 0; pass < 2; pass++)
    for (const contender of contenders) for (let i = 0; i < 3; i++) measure(contender, items);
  const samples = contenders.map(() => [] as number[]);
  const random = seeded(ROUNDS * contenders.length);
  const indexes = contenders.map((_, index) => index);
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, in a new random order each round: no contender always runs right after the same
    // one (whose garbage it would otherwise always be charged for).
    for (const index of shuffle(indexes, random)) samples[index]!.push(measure(contenders[index]!, items));
  }
  if (process.env.BENCH_SAMPLES)
    for (const [index, contender] of contenders.entries())
      console.log(contender.name, samples[index]!.map((rate) => Math.round(rate / 1000)).join(" "));
  const medians = samples.map(median);
  const baseline = medians[medians.length - 1]!;
  return {
    name,
    items,
    results: contenders.map((contender, index) => ({
      name: contender.name,
      opsPerSecond: medians[index]!,
      ratio: medians[index]! / baseline,
    })),
  };
}

export function printCase(result: CaseResult): void {
  console.log(`\n${result.name}${result.items > 1 ? ` (${result.items} items per pass)` : ""}`);
  const width = Math.max(...result.results.map((row) => row.name.length));
  for (const row of result.results) {
    const ops = Math.round(row.opsPerSecond).toLocaleString("en-US");
    console.log(
      `  ${row.name.padEnd(width)}  ${ops.padStart(12)} validations/s   ratio ${row.ratio.toFixed(2)}`,
    );
  }
}

/**
 * Runs one asynchronous case, one operation at a time. Contenders take turns operation by
 * operation, so that a drift in the machine's speed hits all of them alike; each one's rate is
 * its operations over its own accumulated time. The last contender is the baseline.
 */
export async function runAsyncCase(
  name: string,
  contenders: readonly AsyncContender[],
  operations = 30_000,
): Promise<CaseResult> {
  for (const contender of contenders) for (let i = 0; i < 2000; i++) await contender.run();
  const spent = contenders.map(() => 0);
  for (let i = 0; i < operations; i++) {
    for (const [index, contender] of contenders.entries()) {
      const start = performance.now();
      await contender.run();
      spent[index]! += performance.now() - start;
    }
  }
  const rates = spent.map((ms) => (operations / ms) * 1000);
  const baseline = rates[rates.length - 1]!;
  return {
    name,
    items: 1,
    results: contenders.map((contender, index) => ({
      name: contender.name,
      opsPerSecond: rates[index]!,
      ratio: rates[index]! / baseline,
    })),
  };
}
