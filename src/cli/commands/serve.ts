import { MAX_RETRIES } from "../../internal/normalizeRetryOptions.js";
import type { Command } from "../Command.js";
import { seededRandom } from "../emulator/createChaos.js";
import { INSPECTOR_DEFAULTS } from "../emulator/inspector/createInspector.js";
import { type EmulatorStats, startEmulator } from "../emulator/startEmulator.js";
import { humanDuration } from "../humanDuration.js";
import { booleanFlag, integerFlag, listFlag, stringFlag } from "../parseArgs.js";
import { readSecrets, secretFlags, secretFromEnv } from "../readInputs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";
import { plural } from "../wording.js";

function chaosRate(text: string | undefined): number {
  if (text === undefined) return 0;
  const rate = Number(text);
  if (!/^(?:0|1|0?\.\d+|1\.0*)$/.test(text) || !(rate >= 0 && rate <= 1)) {
    throw new UsageError(
      `--chaos must be a share from 0 to 1, not ${JSON.stringify(printable(text).slice(0, 40))}`,
      "--chaos 0.2",
    );
  }
  return rate;
}

function retryDelays(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  if (text === "none") return [];
  const waits = text.split(",").map((part) => part.trim());
  if (waits.length > MAX_RETRIES || waits.some((wait) => !/^\d{1,10}$/.test(wait))) {
    throw new UsageError(
      `--webhook-retry-delays-ms takes up to ${MAX_RETRIES} waits in milliseconds separated by commas`,
      "--webhook-retry-delays-ms 1000,5000,30000",
    );
  }
  return waits.map(Number);
}

function webhookUrls(urls: readonly string[]): string[] {
  return urls.map((text) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new UsageError(`--webhook-url ${JSON.stringify(printable(text).slice(0, 60))} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new UsageError("--webhook-url must be http: or https:");
    return url.href;
  });
}

/** `messaging-events serve`: a local emulator of the service. */
export const serveCommand: Command = {
  name: "serve",
  summary: "Run a local emulator of the service: POST /events, webhooks, and chaos on demand.",
  usage: "serve [options]",
  description: `Answers POST /events as the service does, with the library's server handler: JSON:API
documents validated, ids as ULIDs (26 characters of Crockford base32, time-ordered), idempotent
creation per caller (a repeated Service-Idempotency-Key replays the stored response with
Idempotent-Replayed: true; the same key with another document answers 422; while the first request
is in flight, 409 with Retry-After). Any non-empty Authorization header is accepted, or only the
value of --authorization-env NAME. Everything is kept in memory and lost on exit. GET /health answers
200 when the emulator is up. Browser pages on any origin may call it (CORS: preflights answer 204).

Each created event of a webhook type (s.room.create, s.room.membership, s.message.text,
s.message.media, s.message.edit, s.message.delete, s.room.close; and s.delete, delivered as
s.message.delete with the same content) is delivered, signed, to every
--webhook-url through the library's dispatcher, with its retry delays (5 s, 5 min, 30 min… by
default; shorten them with --webhook-retry-delays-ms). The payload carries the type, the content,
version 2, and roomId when the request has relationships.room.data.id. The signing secret comes
from --secret-env NAME or --secret-file PATH, as on sign and verify; repeat them during a rotation
(newest first: the first signs).

GET /openapi.json serves the OpenAPI document of the service (with /asyncapi.json and the
/json-schema/<file>.json files its references point to), as the package ships them, for client
generators and API explorers. POST /webhooks/examples/<name> delivers one of the package's example
payloads (messaging-events/examples/webhooks/<name>.json: a webhook type such as s.message.media, or
a variant such as s.message.media--with-body) to every --webhook-url, signed like any other: 202
with the delivery ids.

The inspector, a page at /_inspector on the same address (printed at start-up; --no-inspector turns
it off), shows every request and every webhook delivery live: documents, JSON:API errors, each
attempt's timestamp, signature and answer. It sends an event from a form that starts from the
package's example of the chosen type and is checked in the page by the library's own validators,
redelivers a delivery (a new attempt, signed afresh), and copies a request or an attempt as curl
(the Authorization value and the secret are never shown). It keeps the newest --inspector-history
records in memory (1000), 16 MiB of them at most and 16 KiB of each document, and answers only at the
emulator's own address.

--chaos RATE makes that share of POST requests fail as the real world does: 503, 429 with
Retry-After: 1, a dropped connection after the event was created, or an answer 1 to 3 seconds late.
A client that retries with the same idempotency key still creates each event exactly once.

One log line per request and per delivery attempt goes to standard output; the first line says
where it listens. SIGINT or SIGTERM shuts down cleanly (requests in flight finish, the port is freed)
and exits 0.

Exit status: 0 after a clean shutdown, 2 for a usage error or an address it cannot listen on (a port
in use, an address this machine does not have).`,
  flags: [
    {
      name: "port",
      type: "string",
      placeholder: "PORT",
      description: "the port (default: 4010; 0 picks a free one)",
    },
    {
      name: "host",
      type: "string",
      placeholder: "HOST",
      description: "the address to listen on (default: 127.0.0.1)",
    },
    { name: "webhook-url", type: "list", placeholder: "URL", description: "where to deliver webhooks" },
    ...secretFlags,
    {
      name: "webhook-retry-delays-ms",
      type: "string",
      placeholder: "MS,MS,…",
      description: 'the waits before each webhook retry, in milliseconds, or "none"',
    },
    {
      name: "authorization-env",
      type: "string",
      placeholder: "NAME",
      description: "accept only the Authorization value in this environment variable",
    },
    {
      name: "chaos",
      type: "string",
      placeholder: "RATE",
      description: "the share of POST requests that fail on purpose, 0 to 1 (default: 0)",
    },
    {
      name: "chaos-seed",
      type: "string",
      placeholder: "SEED",
      description: "a seed, for the same failures on every run",
    },
    { name: "no-inspector", type: "boolean", description: "serve no inspector page at /_inspector" },
    {
      name: "inspector-history",
      type: "string",
      placeholder: "COUNT",
      description: `the requests and deliveries the inspector keeps, the newest (default: ${INSPECTOR_DEFAULTS.historySize})`,
    },
  ],
  examples: [
    "messaging-events serve                                  # http://127.0.0.1:4010",
    "WEBHOOK_SECRET=dev-secret messaging-events serve --webhook-url http://127.0.0.1:3000/hooks \\\n    --secret-env WEBHOOK_SECRET --webhook-retry-delays-ms 1000,5000",
    "messaging-events serve --chaos 0.3 --chaos-seed 7         # test your client's retries",
    "curl -X POST http://127.0.0.1:4010/webhooks/examples/s.message.media--with-body",
  ],
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError("serve takes no arguments");
    const port = integerFlag(args, "port", 4010, 0, 65535);
    const host = stringFlag(args, "host") ?? "127.0.0.1";
    const urls = webhookUrls(listFlag(args, "webhook-url"));
    const secret =
      urls.length > 0 || args.ordered.some(([flag]) => flag === "secret-env" || flag === "secret-file")
        ? await readSecrets(args, "--webhook-url", io.env)
        : [];
    const authorizationEnv = stringFlag(args, "authorization-env");
    const authorization =
      authorizationEnv === undefined
        ? undefined
        : secretFromEnv("authorization-env", authorizationEnv, io.env);
    const rate = chaosRate(stringFlag(args, "chaos"));
    const seed = stringFlag(args, "chaos-seed");
    const random =
      seed === undefined ? Math.random : seededRandom(integerFlag(args, "chaos-seed", 0, 0, 2 ** 32 - 1));
    const webhookRetryDelaysMs = retryDelays(stringFlag(args, "webhook-retry-delays-ms"));
    const historySize = integerFlag(args, "inspector-history", INSPECTOR_DEFAULTS.historySize, 1, 100_000);
    if (booleanFlag(args, "no-inspector") && stringFlag(args, "inspector-history") !== undefined)
      throw new UsageError("--inspector-history has no use with --no-inspector");
    const inspector = booleanFlag(args, "no-inspector") ? undefined : { historySize };
    const log = (line: string) => {
      io.stdout.write(`${line}\n`);
      void io.stdout.flush();
    };
    const stop = io.untilStopped();
    let emulator: Awaited<ReturnType<typeof startEmulator>>;
    try {
      emulator = await startEmulator({
        host,
        port,
        webhookUrls: urls,
        secret,
        authorization,
        chaosRate: rate,
        random,
        webhookRetryDelaysMs,
        log,
        inspector,
      });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      const why =
        code === "EADDRINUSE"
          ? "the port is in use (pass another --port, or 0 for a free one)"
          : code === "EADDRNOTAVAIL" || code === "ENOTFOUND"
            ? "the address is not available here"
            : code === "EACCES"
              ? "permission denied"
              : String(code ?? "failed");
      io.stderr.write(
        `${io.errorStyles.red("error")}: cannot listen on ${printable(host)}:${port}: ${why}\n`,
      );
      // Like a file that cannot be read: the command line asks for something this machine cannot give.
      return EXIT.usage;
    }
    log(`messaging-events emulator listening on ${emulator.url} (POST ${emulator.url}/events)`);
    if (inspector !== undefined) log(`  inspector: ${emulator.url}/_inspector`);
    for (const [index, url] of urls.entries()) log(`  webhooks: endpoint-${index + 1} -> ${url}`);
    if (rate > 0) log(`  chaos: ${Math.round(rate * 100)}% of POST requests fail on purpose`);
    const signal = await stop;
    log(`${signal}: shutting down (requests in flight finish)`);
    await emulator.close();
    log(summaryLine(emulator.stats()));
    log("stopped");
    return EXIT.ok;
  },
};

/** The line `serve` prints on shutdown: what it answered and delivered, and for how long. */
export function summaryLine(stats: EmulatorStats): string {
  const requests = [`${stats.created} created`, `${stats.replayed} replayed`];
  if (stats.refused > 0) requests.push(`${stats.refused} refused`);
  if (stats.failed > 0) requests.push(`${stats.failed} failed`);
  const webhooks =
    stats.attempts === 0
      ? "no webhook attempts"
      : `${plural(stats.attempts, "webhook attempt")} (${stats.delivered} delivered, ${stats.dead} dead)`;
  return `served ${plural(stats.requests, "request")} (${requests.join(", ")}), ${webhooks} in ${humanDuration(stats.uptimeMs)}`;
}
