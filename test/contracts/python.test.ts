/**
 * Python's jsonschema (Debian's python3-jsonschema, Draft202012Validator with its format checker)
 * on the shipped JSON Schema files gives the library's verdict on every conformance row (on the
 * content files and event.json, and placed in payloads and documents), on 300 generated inputs per
 * payload and document file, on every example, and on every answer of the server kit. One Python
 * process checks them all (test/contracts/jsonschemaVerdicts.py).
 *
 * The Python snippets of docs/other-languages.md run too, as a reader would run them beside an
 * installed package: the webhook check verifies what the library signs and refuses tampered or old
 * webhooks, prints what the page says it prints, and the `pattern` recipe refuses a date-time with a
 * final line break.
 *
 * Part of `npm run test:integration` (it needs python3 with jsonschema, which .ci/run installs). It
 * fails, never skips, when either is missing.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  exampleErrorDocuments,
  exampleRequestDocuments,
  exampleResourceDocuments,
} from "../../scripts/contracts/documentJsonSchemas.js";
import { eventExamples } from "../../scripts/contracts/eventExamples.js";
import { serverAnswers } from "../../scripts/contracts/serverAnswers.js";
import { webhookExamples } from "../../scripts/contracts/webhookExamples.js";
import { signWebhook } from "../../src/webhooks/index.js";
import { conformanceCases } from "../conformance/cases.js";
import { jsonSchemaDir } from "../support/ajv.js";
import {
  asJson,
  contractSchemaFiles,
  inputsFor,
  libraryAccepts,
  placedConformanceRows,
} from "./contractInputs.js";

const PYTHON = "/usr/bin/python3";
const harness = fileURLToPath(new URL("jsonschemaVerdicts.py", import.meta.url));
const SAMPLES = 300;

interface Case {
  readonly what: string;
  readonly file: string;
  readonly value: unknown;
  /** The verdict the library gives. */
  readonly expected: boolean;
}

/** Python's verdicts on every case, in order, and the jsonschema version that gave them. */
function pythonVerdicts(cases: readonly Case[]): { jsonschema: string; verdicts: boolean[] } {
  const run = spawnSync(PYTHON, [harness], {
    input: JSON.stringify({
      folder: fileURLToPath(jsonSchemaDir),
      cases: cases.map(({ file, value }) => [file, value]),
    }),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error)
    throw new Error(`${PYTHON} could not run (${run.error.message}): apt-get install python3-jsonschema`);
  if (run.status !== 0) throw new Error(`${PYTHON} ${harness} failed (status ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as { jsonschema: string; verdicts: boolean[] };
}

const cases: Case[] = [];
const add = (what: string, file: string, value: unknown, expected = libraryAccepts(file, value)) =>
  cases.push({ what, file, value: asJson(value), expected });

beforeAll(async () => {
  const probe = spawnSync(PYTHON, ["-c", "import jsonschema"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `this suite needs ${PYTHON} with the jsonschema module (Debian: apt-get install python3-jsonschema): ${probe.error?.message ?? probe.stderr}`,
    );
  }
  for (const row of conformanceCases) {
    add(`conformance ${row.type}: ${row.name}`, `${row.type}.json`, row.content, row.valid);
    add(
      `conformance ${row.type}: ${row.name}, as an event`,
      "event.json",
      { type: row.type, content: row.content },
      row.valid,
    );
  }
  for (const [file, value] of placedConformanceRows())
    add(`a conformance row placed in ${file}`, file, value);
  for (const file of contractSchemaFiles) {
    const sample = fc.sample(inputsFor(file), { numRuns: SAMPLES, seed: 26 });
    for (const [index, value] of sample.entries()) add(`generated input ${index} of ${file}`, file, value);
  }
  for (const { name, event } of eventExamples) {
    add(`example ${name}`, `${event.type}.json`, event.content, true);
    add(`example ${name}`, "event.json", event, true);
  }
  for (const { name, payload } of webhookExamples) {
    add(`example webhook ${name}`, `webhook-payload.${payload.type}.json`, payload, true);
    add(`example webhook ${name}`, "webhook-payload.json", payload, true);
  }
  for (const document of exampleRequestDocuments())
    add("an example request", "event-document.json", document, true);
  for (const document of exampleResourceDocuments())
    add("an example response", "event-resource-document.json", document, true);
  for (const document of exampleErrorDocuments())
    add("an example error", "error-document.json", document, true);
  for (const answer of await serverAnswers()) {
    const file = answer.status === 201 ? "event-resource-document.json" : "error-document.json";
    add(`the server kit's ${answer.status} (${answer.summary})`, file, answer.body, true);
  }
});

describe("Python's jsonschema on the shipped JSON Schema", () => {
  it("gives the library's verdict on every case: conformance rows, generated inputs, examples, the server's answers", () => {
    const started = performance.now();
    const { jsonschema, verdicts } = pythonVerdicts(cases);
    expect(verdicts).toHaveLength(cases.length);
    const disagreements = cases
      .map((item, index) => ({ ...item, python: verdicts[index] }))
      .filter((item) => item.python !== item.expected)
      .map(
        (item) =>
          `${item.what} (${item.file}): library ${item.expected}, jsonschema ${jsonschema} ${item.python}: ${JSON.stringify(item.value).slice(0, 300)}`,
      );
    expect(disagreements).toEqual([]);
    // Both verdicts are well represented: the suite probes both sides of every rule.
    expect(cases.filter((item) => item.expected).length).toBeGreaterThan(cases.length / 4);
    expect(cases.filter((item) => !item.expected).length).toBeGreaterThan(cases.length / 4);
    console.log(
      `jsonschema ${jsonschema}: ${cases.length} cases in ${Math.round(performance.now() - started)} ms`,
    );
  });
});

/** The ```python blocks of a page, in order. */
function pythonBlocks(page: string): string[] {
  const text = readFileSync(fileURLToPath(new URL(`../../${page}`, import.meta.url)), "utf8");
  return [...text.matchAll(/^```python\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** Runs Python code in a folder where node_modules/messaging-events is this package; its output lines. */
function runPython(code: string, input: unknown): string[] {
  const folder = mkdtempSync(join(tmpdir(), "messaging-events-python-"));
  mkdirSync(join(folder, "node_modules"));
  symlinkSync(
    fileURLToPath(new URL("../../", import.meta.url)),
    join(folder, "node_modules", "messaging-events"),
  );
  const run = spawnSync(PYTHON, ["-c", code], {
    cwd: folder,
    input: JSON.stringify(input),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`the snippet failed (status ${run.status}): ${run.stderr}`);
  return run.stdout.trim().split("\n");
}

describe("the Python snippets of docs/other-languages.md", () => {
  const [webhookCheck, patternRecipe] = pythonBlocks("docs/other-languages.md");

  it("verify what the library signs, refuse a tampered or old webhook, and report what the page says", async () => {
    expect(webhookCheck).toBeDefined();
    const secret = "python-snippet-secret";
    const signed = await Promise.all(
      webhookExamples.map(async ({ payload }) => {
        const { body, headers } = await signWebhook({ payload, secret });
        return {
          body,
          timestamp: headers["service-timestamp"],
          signature: headers["service-signature"],
          secret,
        };
      }),
    );
    const tampered = { ...signed[0]!, body: signed[0]!.body.replace("user-4821", "user-4822") };
    const old = await signWebhook({
      payload: webhookExamples[0]!.payload,
      secret,
      timestamp: Date.now() - 600_000,
    });
    const stale = {
      body: old.body,
      timestamp: old.headers["service-timestamp"],
      signature: old.headers["service-signature"],
      secret,
    };
    const harness = [
      webhookCheck,
      "import sys as _sys",
      "_case = json.load(_sys.stdin)",
      '_verified = [verified_payload(s["body"].encode(), s["timestamp"], s["signature"], s["secret"]) for s in _case["signed"]]',
      '_problems = [problems(payload) for payload in _case["payloads"]]',
      'print(json.dumps({"verified": _verified, "problems": _problems}))',
    ].join("\n");
    const lines = runPython(harness, {
      signed: [...signed, tampered, stale],
      payloads: [
        ...webhookExamples.map((example) => example.payload),
        { type: "s.room.close", version: 1, content: {} },
      ],
    });
    // The snippet's own print, then the harness's answer.
    const claimed = /print\(problems\(.*\)\)\n# (.*)\n/.exec(webhookCheck!)?.[1];
    expect(lines[0]).toBe(claimed);
    const { verified, problems } = JSON.parse(lines.at(-1)!) as { verified: unknown[]; problems: string[][] };
    expect(verified).toEqual([...webhookExamples.map((example) => example.payload), null, null]);
    expect(problems.slice(0, -1)).toEqual(webhookExamples.map(() => []));
    expect(problems.at(-1)).toEqual(["$.version: 2 was expected"]);
  });

  it("the pattern recipe gives $ its JSON Schema meaning: a date-time with a final line break is refused", () => {
    expect(patternRecipe).toBeDefined();
    const harness = [
      patternRecipe,
      "import json",
      'with open("node_modules/messaging-events/dist/json-schema/s.timer.json", encoding="utf-8") as _file:',
      "    _schema = json.load(_file)",
      '_values = [{"status": "RUNNING", "expires": "2026-11-22T18:00:00Z\\n"}, {"status": "RUNNING", "expires": "2026-11-22T18:00:00Z"}]',
      "print(json.dumps([[StrictValidator(_schema).is_valid(v), Draft202012Validator(_schema).is_valid(v)] for v in _values]))",
    ].join("\n");
    expect(JSON.parse(runPython(harness, null).at(-1)!)).toEqual([
      [false, true],
      [true, true],
    ]);
  });
});
