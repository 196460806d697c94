import {
  createEventsClient,
  EventsApiError,
  type EventsClient,
  type EventsClientError,
  EventsRetryError,
  isEventsClientError,
  type NewEvent,
} from "../../client/index.js";
import { type EventType, isEventValidationError, safeParseEvent } from "../../events/index.js";
import { createIdempotencyKey, isValidIdempotencyKey } from "../../idempotency/index.js";
import { exponentialDelay } from "../../internal/backoff.js";
import type { Command } from "../Command.js";
import { closest, integerFlag, stringFlag } from "../parseArgs.js";
import { listContractFiles, readContractFile } from "../readContractFile.js";
import { readInput, secretFromEnv } from "../readInputs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";
import { plural } from "../wording.js";

/** The client's waits for `--retries COUNT`: its default 100, 200, 400 ms, doubling on, up to 5 s. */
const retryDelays = (count: number): number[] =>
  Array.from({ length: count }, (_, index) => exponentialDelay(index, 100, 5_000));

/** `messaging-events send`: creates one event with the library's client. */
export const sendCommand: Command = {
  name: "send",
  summary: "Create an event at a service (or the emulator) with the library's client.",
  usage: "send --base-url URL --authorization-env NAME [options] [event-file]",
  description: `Reads one event { type, content } (optionally with "relationships" and "attributes") from
a file, or from standard input when there is none or for "-", or takes one of the package's example
events with --example NAME (messaging-events/examples/events/NAME.json: an event type such as
s.timer, or a variant such as s.timer--cancelled or s.message.action--date), and creates it with
POST <base-url>/events through the library's client: the content is validated first, a JSON:API
document is sent with an idempotency key (a new UUID v4 unless --idempotency-key gives one), and
network errors, 5xx, 429 and 409 are retried with the same key, so the event is created once.

The Authorization header value comes from an environment variable (--authorization-env NAME), never
from the command line, and never appears in the output.

Prints the created event resource as JSON; when the service had created it before with the same
key (Idempotent-Replayed), a note on standard error says so. On failure prints the service's JSON:API errors (or the
validation issues) and, on standard error, the code, the cause of a network failure, and what to do
next: retry with the same key when that is safe, or use a new key when the service refused this one.

Exit status: 0 created, 1 refused or failed, 2 for a usage error.`,
  flags: [
    {
      name: "base-url",
      type: "string",
      placeholder: "URL",
      description: "the service's base URL (events go to <URL>/events)",
    },
    {
      name: "authorization-env",
      type: "string",
      placeholder: "NAME",
      description: "the environment variable that holds the Authorization header value",
    },
    {
      name: "idempotency-key",
      type: "string",
      placeholder: "KEY",
      description: "the key to create with (default: a new UUID v4); reuse it to retry safely",
    },
    {
      name: "retries",
      type: "string",
      placeholder: "COUNT",
      description: "retries after the first attempt, waiting 100 ms, 200 ms, 400 ms… up to 5 s (default: 3)",
    },
    {
      name: "timeout-ms",
      type: "string",
      placeholder: "MS",
      description: "time-out of one attempt (default: 10000)",
    },
    {
      name: "example",
      type: "string",
      placeholder: "NAME",
      description:
        "send the package's example event NAME (an event type, or <type>--<variant>) instead of a file",
    },
  ],
  examples: [
    'TOKEN="Bearer dev" messaging-events send --base-url http://127.0.0.1:4010 --authorization-env TOKEN --example s.timer',
    `echo '{"type":"s.message.text","content":{"body":"Hello"}}' | \\
    TOKEN="Bearer dev" messaging-events send --base-url http://127.0.0.1:4010 --authorization-env TOKEN`,
    "messaging-events send --base-url https://api.example.com --authorization-env MESSAGING_TOKEN event.json",
  ],
  async run(args, io) {
    const baseUrl = stringFlag(args, "base-url");
    if (baseUrl === undefined)
      throw new UsageError("send needs --base-url", "--base-url http://127.0.0.1:4010");
    const authorizationEnv = stringFlag(args, "authorization-env");
    if (authorizationEnv === undefined)
      throw new UsageError("send needs the Authorization value", "--authorization-env NAME");
    const authorization = secretFromEnv("authorization-env", authorizationEnv, io.env);
    if (args.positionals.length > 1) throw new UsageError("send takes one event file");
    const exampleName = stringFlag(args, "example");
    if (exampleName !== undefined && args.positionals.length > 0)
      throw new UsageError("send takes an event file or --example NAME, not both");
    const example = exampleName === undefined ? undefined : await exampleEvent(exampleName);
    const idempotencyKey = stringFlag(args, "idempotency-key") ?? createIdempotencyKey();
    if (!isValidIdempotencyKey(idempotencyKey)) {
      throw new UsageError(
        "--idempotency-key must be 1 to 255 visible ASCII characters other than the comma",
      );
    }
    let client: EventsClient;
    try {
      client = createEventsClient({
        baseUrl,
        authorization,
        retry: { delaysMs: retryDelays(integerFlag(args, "retries", 3, 0, 100)) },
        timeoutMs: integerFlag(args, "timeout-ms", 10_000, 1, 3_600_000),
      });
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(printable(error.message));
      throw error;
    }
    const bytes = example ?? (await readInput(args.positionals[0], io.stdin, 1024 * 1024, "the event"));
    let input: unknown;
    try {
      input = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      io.stderr.write(`${io.errorStyles.red("error")}: the event is not JSON\n`);
      return EXIT.failed;
    }
    const event = eventOf(input);
    if (!event.success) {
      for (const issue of event.issues) {
        const at = issue.pointer === "" ? "" : `${io.errorStyles.yellow(printable(issue.pointer))}: `;
        io.stderr.write(
          `${io.errorStyles.red("invalid")}: ${at}${printable(issue.message)} (${issue.code})\n`,
        );
      }
      return EXIT.failed;
    }
    try {
      const { data, replayed } = await client.createEvent(event.data, { idempotencyKey });
      io.stdout.write(`${JSON.stringify({ data }, null, 2)}\n`);
      if (replayed) {
        io.stderr.write(
          `note: the service had created this event before with the key ${idempotencyKey} (Idempotent-Replayed): nothing new was created\n`,
        );
      }
      return EXIT.ok;
    } catch (error) {
      if (error instanceof EventsApiError) {
        io.stdout.write(`${JSON.stringify({ errors: error.errors }, null, 2)}\n`);
      }
      if (isEventsClientError(error)) {
        io.stderr.write(`${io.errorStyles.red("error")}: ${error.code}: ${printable(failureOf(error))}\n`);
        const cause = causeOf(error);
        if (cause !== undefined) io.stderr.write(`cause: ${printable(cause)}\n`);
        const hint = hintFor(error, authorizationEnv);
        if (hint !== undefined) io.stderr.write(`${io.errorStyles.dim("hint")}: ${hint}\n`);
        return EXIT.failed;
      }
      if (isEventValidationError(error)) {
        io.stderr.write(`${io.errorStyles.red("invalid")}: ${printable(error.message)}\n`);
        return EXIT.failed;
      }
      throw error;
    }
  },
};

/** The bytes of the package's example event `name`; a `UsageError` naming the closest for an unknown one. */
async function exampleEvent(name: string): Promise<Uint8Array> {
  const text = /^[a-z][a-z.]*(?:--[a-z-]+)?$/.test(name)
    ? await readContractFile(`examples/events/${name}.json`)
    : undefined;
  if (text !== undefined) return new TextEncoder().encode(text);
  const names = await listContractFiles("examples/events/");
  const near = closest(name, names);
  throw new UsageError(
    `no example event is named ${JSON.stringify(printable(name).slice(0, 60))}`,
    near === undefined
      ? `the examples are the 32 event types and these variants: ${names.filter((known) => known.includes("--")).join(", ")}`
      : `did you mean ${near}?`,
  );
}

/** What failed, in words: the client's message, with the count of attempts in plain English. */
function failureOf(error: EventsClientError): string {
  if (!(error instanceof EventsRetryError) || !error.message.startsWith("gave up after "))
    return error.message;
  const last =
    error.lastStatus === undefined
      ? "the last attempt got no answer"
      : `the last answer was ${error.lastStatus}`;
  return `gave up after ${plural(error.attempts, "attempt")}; ${last}`;
}

/** The chain of causes of a failure ("fetch failed: connect ECONNREFUSED 127.0.0.1:4999"), if it has one. */
function causeOf(error: Error): string | undefined {
  const said: string[] = [];
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 5 && cause !== undefined && cause !== null; depth++) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = (cause as { code?: unknown }).code;
    const text = message || (typeof code === "string" ? code : "");
    if (text !== "" && !said.includes(text)) said.push(text.slice(0, 200));
    cause = (cause as { cause?: unknown }).cause;
  }
  return said.length === 0 ? undefined : said.join(": ");
}

/** What to do next, as fits the failure: retry with the key only when that can help. */
function hintFor(error: EventsClientError, authorizationEnv: string): string | undefined {
  const key = error.idempotencyKey;
  const retry = `retry with --idempotency-key ${key} to create it at most once`;
  if (error instanceof EventsApiError) {
    const code = error.errors[0]?.code;
    if (code === "ERR_IDEMPOTENCY_KEY_REUSED" || (error.status === 422 && /idempotency/i.test(code ?? ""))) {
      return `the key ${key} was used before for another event: send this one with a new --idempotency-key, or without one`;
    }
    if (error.status === 401 || error.status === 403) {
      return `the service refused the Authorization value in ${authorizationEnv}`;
    }
    // 409: the first request with this key is still in flight.
    return error.status === 409 ? `wait, then ${retry}` : undefined;
  }
  return error.code === "ERR_EVENTS_REDIRECT" ? "use the URL the service redirects to as --base-url" : retry;
}

type Issue = { readonly pointer: string; readonly code: string; readonly message: string };

/** The event to create, checked as an event: `{ type, content }` plus the client's optional members. */
function eventOf(
  input: unknown,
): { success: true; data: NewEvent<EventType> } | { success: false; issues: Issue[] } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return {
      success: false,
      issues: [{ pointer: "", code: "invalid_type", message: "the event must be an object" }],
    };
  }
  const { relationships, attributes, ...event } = input as Record<string, unknown>;
  const checked = safeParseEvent(event);
  if (!checked.success) {
    return {
      success: false,
      issues: checked.error.issues.map((issue) => ({
        pointer: issue.pointer,
        code: issue.code,
        message: issue.message,
      })),
    };
  }
  // What the user wrote is sent; the client validates it again.
  const value = {
    ...event,
    ...(relationships === undefined ? {} : { relationships }),
    ...(attributes === undefined ? {} : { attributes }),
  } as NewEvent<EventType>;
  return { success: true, data: value };
}
