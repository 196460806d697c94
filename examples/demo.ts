/**
 * `npm run demo`: validates every example event in examples/events/ with the built package and
 * prints a table of verdicts (files under valid/ must pass and files under invalid/ must fail; the
 * demo exits with status 1 if any verdict differs), then signs a webhook and verifies it as
 * received, altered, replayed and so on, then shows the JSON:API request that creates an event and
 * the JSON:API errors a server returns for an invalid one. Then it serves `POST /events` on a
 * loopback port (a create, its byte-identical replay, a 409 for a key in flight, a 422 for a reused
 * key) and sends a webhook to two loopback receivers (a failed attempt retried with a new
 * signature, an endpoint disabled by 410). Every scene checks itself: the demo exits with status 1
 * if anything does not behave as printed.
 */
import { readdirSync, readFileSync } from "node:fs";
import {
  createEventDocument,
  type EventContentInput,
  eventScope,
  isEventType,
  JSON_API_MEDIA_TYPE,
  safeParseEvent,
  safeParseEventDocument,
  safeVerifyWebhook,
  signWebhook,
  toJsonApiErrors,
  withIdempotencyKey,
} from "messaging-events";
import type { Expect } from "./scenes/Expect.js";
import { sendingWebhooks } from "./scenes/sendingWebhooks.js";
import { servingEvents } from "./scenes/servingEvents.js";

// A scene that hangs must not hang the demo: past this, it fails (the timer never keeps it alive).
// Far above the usual run (a few seconds), so that a busy machine slows the demo without failing it.
const DEMO_LIMIT_MS = 20_000;
setTimeout(() => {
  console.error(`\nThe demo did not finish within ${DEMO_LIMIT_MS / 1_000} s.`);
  process.exit(1);
}, DEMO_LIMIT_MS).unref();

const eventsDir = new URL("./events/", import.meta.url);
const codes = new Map<string, number>();
const width = Math.max(60, Math.min(process.stdout.columns ?? 120, 140));

interface Row {
  readonly file: string;
  readonly expected: "valid" | "invalid";
  readonly type: string;
  readonly verdict: "valid" | "invalid";
  readonly details: string[];
}

function readRows(expected: "valid" | "invalid"): Row[] {
  const dir = new URL(`${expected}/`, eventsDir);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const event: unknown = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
      const type = String((event as { type?: unknown }).type);
      const result = safeParseEvent(event);
      if (result.success) {
        return { file, expected, type, verdict: "valid", details: [`scope ${eventScope(result.data.type)}`] };
      }
      const { error } = result;
      const details = error.issues.map((issue) => `${issue.message} (${issue.pointer || "/"})`);
      codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
      return {
        file,
        expected,
        type: isEventType(type) ? type : `${type} (unknown)`,
        verdict: "invalid",
        details,
      };
    });
}

function wrap(text: string, size: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + word.length + 1 > size) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

const rows = [...readRows("valid"), ...readRows("invalid")];
const fileWidth = Math.max(...rows.map((row) => row.file.length));
const detailWidth = Math.max(30, width - fileWidth - 14);

console.log(`messaging-events demo: ${rows.length} example events from examples/events/\n`);
console.log(`${"Verdict".padEnd(10)}${"Example".padEnd(fileWidth + 2)}Details`);
console.log("-".repeat(Math.min(width, 10 + fileWidth + 2 + detailWidth)));
for (const row of rows) {
  const mark = row.verdict === "valid" ? "✓ valid" : "✗ invalid";
  const surprise = row.verdict === row.expected ? "" : `  <-- expected ${row.expected}`;
  const lines = row.details.flatMap((detail) => wrap(detail, detailWidth));
  lines[lines.length - 1] += surprise;
  lines.forEach((line, index) => {
    const left =
      index === 0 ? `${mark.padEnd(10)}${row.file.padEnd(fileWidth + 2)}` : " ".repeat(10 + fileWidth + 2);
    console.log(`${left}${line}`);
  });
}

const unexpected = rows.filter((row) => row.verdict !== row.expected);
const validCount = rows.filter((row) => row.verdict === "valid").length;
console.log(
  `\n${rows.length} examples: ${validCount} valid, ${rows.length - validCount} invalid; ${
    unexpected.length === 0
      ? "every verdict as expected."
      : `${unexpected.length} verdict(s) NOT as expected.`
  }`,
);
console.log(`Error codes: ${[...codes].map(([code, count]) => `${code} ×${count}`).join(", ")}`);
if (unexpected.length > 0) process.exitCode = 1;

// Webhooks: what the service sends, and what a receiver checks.
const secret = "whsec_demo_secret";
const payload = {
  type: "s.message.text",
  version: 2,
  content: { body: "Grüße aus Köln 👋" },
  roomId: "room-42",
  senderId: "user-7",
};
const signed = await signWebhook({ payload, secret });
console.log("\nWebhooks: a signed POST, as the service sends it");
for (const [name, value] of Object.entries(signed.headers)) console.log(`  ${name}: ${value}`);
console.log(`  body: ${signed.body}`);

const attempts: [string, Parameters<typeof safeVerifyWebhook>[0]][] = [
  ["as received", { ...signed, secret }],
  ["during a secret rotation", { ...signed, secret: ["whsec_next_secret", secret] }],
  ["body altered", { ...signed, body: signed.body.replace("Köln", "Bonn"), secret }],
  ["wrong secret", { ...signed, secret: "whsec_guess" }],
  ["replayed 10 minutes later", { ...signed, secret, now: Date.now() + 600_000 }],
  ["body parsed by a JSON middleware", { ...signed, body: JSON.parse(signed.body), secret }],
  [
    "no signature header",
    { ...signed, headers: { "service-timestamp": signed.headers["service-timestamp"] }, secret },
  ],
];
console.log("\nVerifying it:");
for (const [label, options] of attempts) {
  const result = await safeVerifyWebhook(options);
  const verdict = result.success
    ? `✓ authentic ${result.data.type} for ${result.data.roomId}, signed ${result.timestamp.toISOString()}`
    : `✗ ${result.error.code}: ${result.error.message}${
        "kind" in result.error
          ? ` (${result.error.kind === "configuration" ? "500, fix the code" : "401"})`
          : ""
      }`;
  console.log(`  ${label.padEnd(34)}${verdict}`);
}

// Creating events: the JSON:API document and the request a client sends.
const example = JSON.parse(readFileSync(new URL("valid/s.message.text.json", eventsDir), "utf8")) as {
  type: "s.message.text";
  content: EventContentInput<"s.message.text">;
};
const { document, headers } = withIdempotencyKey(createEventDocument(example), "demo-key-0001");
console.log("\nCreating an event: the request createEventsClient sends (POST {base_url}/events)");
const requestHeaders = {
  Authorization: "<credentials>",
  "Content-Type": JSON_API_MEDIA_TYPE,
  Accept: JSON_API_MEDIA_TYPE,
  ...headers,
};
for (const [name, value] of Object.entries(requestHeaders)) console.log(`  ${name}: ${value}`);
console.log(`  body: ${JSON.stringify(document, null, 2).replaceAll("\n", "\n  ")}`);

const rejected = safeParseEventDocument({
  data: {
    type: "events",
    attributes: {
      eventType: "s.message.action",
      content: { type: "boolean", body: "OK?", writeable: [], options: [{ label: "Yes", value: "yes" }] },
    },
  },
});
if (!rejected.success) {
  console.log("\nA server rejecting an invalid document: HTTP 422 with JSON:API errors");
  console.log(`  ${JSON.stringify(toJsonApiErrors(rejected.error), null, 2).replaceAll("\n", "\n  ")}`);
}

// Serving and sending, on loopback sockets: each scene records what did not behave as printed.
const failures: string[] = [];
const expect: Expect = (condition, what) => {
  if (!condition) failures.push(what);
};
for (const scene of [servingEvents, sendingWebhooks]) {
  try {
    await scene(expect);
  } catch (error) {
    failures.push(`${scene.name} threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
if (failures.length > 0) {
  console.log(`\n${failures.length} check(s) NOT as shown:`);
  for (const failure of failures) console.log(`  ✗ ${failure}`);
  process.exitCode = 1;
} else {
  console.log("\nEvery scene behaved as shown.");
}
