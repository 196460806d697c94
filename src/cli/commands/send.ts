import {
  createEventsClient,
  EventsApiError,
  type EventsClient,
  isEventsClientError,
  type NewEvent,
} from "../../client/index.js";
import { type EventType, isEventValidationError, safeParseEvent } from "../../events/index.js";
import { createIdempotencyKey, isValidIdempotencyKey } from "../../idempotency/index.js";
import type { Command } from "../Command.js";
import { integerFlag, stringFlag } from "../parseArgs.js";
import { readInput, secretFromEnv } from "../readInputs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";

/** `messaging-events send`: creates one event with the library's client. */
export const sendCommand: Command = {
  name: "send",
  summary: "Create an event at a service (or the emulator) with the library's client.",
  usage: "send --base-url URL --credentials-env NAME [options] [event-file]",
  description: `Reads one event { type, content } (optionally with "relationships" and "attributes") from
a file, or from standard input when there is none or for "-", and creates it with
POST <base-url>/events through the library's client: the content is validated first, a JSON:API
document is sent with an idempotency key (a new UUID v4 unless --idempotency-key gives one), and
network errors, 5xx, 429 and 409 are retried with the same key, so the event is created once.

The Authorization header value comes from an environment variable (--credentials-env NAME), never
from the command line, and never appears in the output.

Prints the created event resource as JSON. On failure prints the service's JSON:API errors (or the
validation issues) and, on standard error, the code and the key to retry with.

Exit status: 0 created, 1 refused or failed, 2 for a usage error.`,
  flags: [
    {
      name: "base-url",
      type: "string",
      placeholder: "URL",
      description: "the service's base URL (events go to <URL>/events)",
    },
    {
      name: "credentials-env",
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
      description: "retries after the first attempt (default: 3)",
    },
    {
      name: "timeout-ms",
      type: "string",
      placeholder: "MS",
      description: "time-out of one attempt (default: 10000)",
    },
  ],
  examples: [
    `echo '{"type":"s.message.text","content":{"body":"Hello"}}' | \\
    TOKEN="Bearer dev" messaging-events send --base-url http://127.0.0.1:4010 --credentials-env TOKEN`,
    "messaging-events send --base-url https://api.example.com --credentials-env MESSAGING_TOKEN event.json",
  ],
  async run(args, io) {
    const baseUrl = stringFlag(args, "base-url");
    if (baseUrl === undefined)
      throw new UsageError("send needs --base-url", "--base-url http://127.0.0.1:4010");
    const credentialsEnv = stringFlag(args, "credentials-env");
    if (credentialsEnv === undefined)
      throw new UsageError("send needs the credentials", "--credentials-env NAME");
    const credentials = secretFromEnv(credentialsEnv, io.env);
    if (args.positionals.length > 1) throw new UsageError("send takes one event file");
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
        credentials,
        retry: { retries: integerFlag(args, "retries", 3, 0, 100) },
        timeoutMs: integerFlag(args, "timeout-ms", 10_000, 1, 3_600_000),
      });
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(printable(error.message));
      throw error;
    }
    const bytes = await readInput(args.positionals[0], io.stdin, 1024 * 1024, "the event");
    let input: unknown;
    try {
      input = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      io.stderr.write(`${io.errorStyles.red("error")}: the event is not JSON\n`);
      return EXIT.failed;
    }
    const event = eventOf(input);
    if (!event.ok) {
      for (const issue of event.issues) {
        const at = issue.pointer === "" ? "" : `${io.errorStyles.yellow(printable(issue.pointer))}: `;
        io.stderr.write(
          `${io.errorStyles.red("invalid")}: ${at}${printable(issue.message)} (${issue.code})\n`,
        );
      }
      return EXIT.failed;
    }
    try {
      const created = await client.createEvent(event.value, { idempotencyKey });
      io.stdout.write(`${JSON.stringify({ data: created }, null, 2)}\n`);
      return EXIT.ok;
    } catch (error) {
      if (error instanceof EventsApiError) {
        io.stdout.write(`${JSON.stringify({ errors: error.errors }, null, 2)}\n`);
      }
      if (isEventsClientError(error)) {
        io.stderr.write(`${io.errorStyles.red("error")}: ${error.code}: ${printable(error.message)}\n`);
        io.stderr.write(`retry with --idempotency-key ${idempotencyKey} to create it at most once\n`);
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

type Issue = { readonly pointer: string; readonly code: string; readonly message: string };

/** The event to create, checked as an event: `{ type, content }` plus the client's optional members. */
function eventOf(input: unknown): { ok: true; value: NewEvent<EventType> } | { ok: false; issues: Issue[] } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return {
      ok: false,
      issues: [{ pointer: "", code: "invalid_type", message: "the event must be an object" }],
    };
  }
  const { relationships, attributes, ...event } = input as Record<string, unknown>;
  const checked = safeParseEvent(event);
  if (!checked.success) {
    return {
      ok: false,
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
  return { ok: true, value };
}
