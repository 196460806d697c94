/**
 * The validators build no code from strings: the built package, in a real Node process started
 * with `--disallow-code-generation-from-strings` (as under a strict Content Security Policy or in
 * an edge runtime), gives every verdict of the conformance table and the same results as the
 * interpreted reference on a few thousand generated values, and no attempt to build code from a
 * string is even made on the paths of `safeParseEventContent` and `safeParseEvent` (Zod would
 * probe with `new Function` and fall back, which a purely behavioural check cannot see). The child
 * first proves that the flag is on: `eval` and `new Function` throw there.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventType, eventTypes, type SafeParseResult } from "../../src/events/index.js";
import { interpretEvent, interpretEventContent } from "../../src/events/interpretEvent.js";
import { canonical } from "../support/compiled/snapshot.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const childScript = fileURLToPath(new URL("../support/compiled/noCodeGenerationChild.mjs", import.meta.url));
const PER_TYPE = 70;

interface PlainResult {
  readonly success: boolean;
  readonly data?: unknown;
  readonly code?: string;
  readonly issues?: readonly { code: string; path: unknown[]; pointer: string; message: string }[];
}
interface ChildReport {
  readonly flag: { execArgv: string[]; evalRefused: boolean; functionRefused: boolean };
  readonly table: readonly {
    name: string;
    valid: boolean;
    expect?: { code: string; pointer: string };
    content: PlainResult;
    event: PlainResult;
  }[];
  readonly contentResults: readonly PlainResult[];
  readonly eventResults: readonly PlainResult[];
  readonly conformance: Record<string, string>;
  readonly attempts: readonly { phase: string; kind: string; stack: string }[];
}

/** The reference result as plain data, the shape the child answers in. */
function plain(result: SafeParseResult<unknown>) {
  if (result.success) return { success: true, data: canonical(result.data) };
  const { error } = result;
  return {
    success: false,
    isError: true,
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

/** A child's result in the same form (data made comparable). */
const fromChild = (result: PlainResult | undefined) =>
  result?.success ? { ...result, data: canonical(result.data) } : result;

/** The value as the child receives it (the structured clone), or `undefined` when it cannot travel. */
function travelled<T>(value: T): T | undefined {
  try {
    return structuredClone(value);
  } catch {
    return undefined;
  }
}

// Valid content, near misses by class and random ones, for every type; values that cannot be
// cloned (functions, symbols) are left out, and the reference runs on the clone the child gets.
const contents: { type: EventType; content: unknown }[] = [];
for (const type of eventTypes) {
  const samples = fc.sample(
    fc.oneof(validContent[type], validContent[type].chain(nearMiss), validContent[type].chain(mutated)),
    PER_TYPE,
  );
  for (const sample of samples) {
    const content = travelled(sample);
    if (content !== undefined || sample === undefined) contents.push({ type, content });
  }
}
const wholeEvents = fc
  .sample(
    fc.oneof(
      ...eventTypes.map((type) =>
        validContent[type].chain((content) =>
          fc.oneof(fc.constant({ type, content }), nearMiss({ type, content })),
        ),
      ),
    ),
    1000,
  )
  .map(travelled)
  .filter((event) => event !== undefined);

let child: ChildProcess | undefined;
let report: ChildReport;
const stderr: string[] = [];

beforeAll(async () => {
  const running = fork(childScript, [], {
    cwd: root,
    execPath: process.execPath,
    execArgv: ["--disallow-code-generation-from-strings"],
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  child = running;
  running.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  report = await new Promise<ChildReport>((resolve, reject) => {
    running.on("error", reject);
    running.on("exit", (code) =>
      reject(new Error(`the child exited (${code}) before answering: ${stderr.join("")}`)),
    );
    running.on("message", (message: { ready?: boolean } | ChildReport) => {
      if ("ready" in message) running.send({ contents, events: wholeEvents });
      else resolve(message as ChildReport);
    });
  });
});

afterAll(() => {
  if (child?.exitCode === null) child.kill();
});

describe("under --disallow-code-generation-from-strings", () => {
  it("the flag is on: eval and new Function are refused in the child", () => {
    expect(report.flag.execArgv).toContain("--disallow-code-generation-from-strings");
    expect(report.flag.evalRefused).toBe(true);
    expect(report.flag.functionRefused).toBe(true);
  });

  it("the child sees attempts to build code: eval, Function and the other function constructors", () => {
    const seen = report.attempts
      .filter((attempt) => attempt.phase === "self-check")
      .map((attempt) => attempt.kind);
    expect(seen).toStrictEqual(["Function", "Function", "AsyncFunction", "GeneratorFunction", "eval"]);
  });

  it("no code is built from a string while importing the package or validating content and events", () => {
    // The conformance suite runs last and reaches other modules (webhooks, server): not these paths.
    const onThesePaths = report.attempts.filter(
      (attempt) => attempt.phase === "import" || attempt.phase === "content",
    );
    expect(
      onThesePaths.map((attempt) => `${attempt.phase}: ${attempt.kind}\n${attempt.stack}`),
    ).toStrictEqual([]);
  });

  it("every row of the conformance table gets its verdict and its expected issue", () => {
    expect(report.table.length).toBeGreaterThan(100);
    for (const row of report.table) {
      for (const result of [row.content, row.event]) {
        expect(result.success, row.name).toBe(row.valid);
        if (!row.valid) {
          expect(
            result.issues?.some(
              (issue) => issue.code === row.expect?.code && issue.pointer === row.expect.pointer,
            ),
            `${row.name}: ${row.expect?.code} at ${row.expect?.pointer}`,
          ).toBe(true);
        }
      }
    }
  });

  it(`${eventTypes.length * PER_TYPE} generated contents and 1000 events give the interpreted reference's results`, () => {
    expect(report.contentResults).toHaveLength(contents.length);
    contents.forEach(({ type, content }, index) => {
      expect(fromChild(report.contentResults[index]), `${type} ${fc.stringify(content)}`).toStrictEqual(
        plain(interpretEventContent(type, content)),
      );
    });
    expect(report.eventResults).toHaveLength(wholeEvents.length);
    wholeEvents.forEach((event, index) => {
      expect(fromChild(report.eventResults[index]), fc.stringify(event)).toStrictEqual(
        plain(interpretEvent(event)),
      );
    });
  });

  it("the runtime conformance suite passes", () => {
    expect(Object.values(report.conformance).length).toBeGreaterThan(5);
    for (const [check, result] of Object.entries(report.conformance)) expect(result, check).toBe("pass");
  });
});
