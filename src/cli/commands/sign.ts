import { safeParseWebhookPayload, signWebhook, type WebhookSignatureEncoding } from "../../webhooks/index.js";
import type { Command } from "../Command.js";
import { integerFlag, stringFlag } from "../parseArgs.js";
import { readInput, readSecrets, secretFlags } from "../readInputs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";

/** `messaging-events sign`: the headers the service would send with a body. */
export const signCommand: Command = {
  name: "sign",
  summary: "Compute the webhook headers (service-timestamp, service-signature) for a body.",
  usage: "sign [options] [body-file]",
  description: `Signs a body (a file, or standard input when there is none or for "-") as the service signs
a webhook: the HMAC-SHA-512 of "<service-timestamp>:<body>" with the secret, written as unpadded
base64url (the service's own spelling) unless --encoding says otherwise. Prints the headers to send,
one "name: value" per line, or a JSON object with --format json. The body is signed byte for byte as
given; it must be UTF-8. A body that is not a valid webhook payload is signed anyway, with a warning.

The secret comes from an environment variable (--secret-env NAME) or a file (--secret-file PATH,
one trailing line break dropped), never from the command line, and is never printed. Both flags
may be repeated, as on verify and serve: the secrets are then newest first, and the first signs.

Exit status: 0, or 2 for a usage error (no secret, a bad timestamp, a body that is not UTF-8 or
larger than --max-body-bytes).`,
  flags: [
    ...secretFlags,
    {
      name: "timestamp",
      type: "string",
      placeholder: "TIME",
      description: "the service-timestamp value, an RFC 3339 date-time (default: now)",
    },
    {
      name: "encoding",
      type: "string",
      values: ["base64url", "hex", "base64"],
      placeholder: "ENCODING",
      description: "base64url (default, unpadded), hex or base64 (padded)",
    },
    {
      name: "format",
      type: "string",
      values: ["headers", "json"],
      placeholder: "FORMAT",
      description: 'headers (default: "name: value" lines) or json',
    },
    {
      name: "max-body-bytes",
      type: "string",
      placeholder: "BYTES",
      description: "the largest body read (default: 1048576)",
    },
  ],
  examples: [
    "WEBHOOK_SECRET=s3cr3t messaging-events sign --secret-env WEBHOOK_SECRET payload.json",
    "messaging-events sign --secret-file ~/.webhook-secret --format json < payload.json",
    "messaging-events sign --secret-env WEBHOOK_SECRET --timestamp 2026-11-22T18:00:00.000Z payload.json",
  ],
  async run(args, io) {
    if (args.positionals.length > 1) throw new UsageError("sign takes one body file");
    // Newest first: the first signs, as everywhere a list of secrets is taken.
    const [secret] = await readSecrets(args, "sign", io.env);
    const maxBytes = integerFlag(args, "max-body-bytes", 1024 * 1024, 1, 1024 * 1024 * 1024);
    const bytes = await readInput(args.positionals[0], io.stdin, maxBytes, "the body");
    let body: string;
    try {
      body = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new UsageError("the body is not UTF-8 text");
    }
    const timestamp = stringFlag(args, "timestamp");
    const encoding = (stringFlag(args, "encoding") ?? "base64url") as WebhookSignatureEncoding;
    let signed: Awaited<ReturnType<typeof signWebhook>>;
    try {
      signed = await signWebhook({
        payload: body,
        secret: secret!,
        encoding,
        ...(timestamp === undefined ? {} : { timestamp }),
      });
    } catch (error) {
      if (error instanceof TypeError && /timestamp/.test(error.message)) {
        throw new UsageError(
          `--timestamp must be an RFC 3339 date-time`,
          "--timestamp 2026-11-22T18:00:00.000Z",
        );
      }
      throw error;
    }
    warnIfNotPayload(body, io);
    if (stringFlag(args, "format") === "json")
      io.stdout.write(`${JSON.stringify({ headers: signed.headers }, null, 2)}\n`);
    else for (const [name, value] of Object.entries(signed.headers)) io.stdout.write(`${name}: ${value}\n`);
    return EXIT.ok;
  },
};

function warnIfNotPayload(body: string, io: Parameters<Command["run"]>[1]): void {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    io.stderr.write(`${io.errorStyles.yellow("warning")}: the body is not JSON; signed anyway\n`);
    return;
  }
  const result = safeParseWebhookPayload(value);
  if (result.success) return;
  const first = result.error.issues[0];
  io.stderr.write(
    `${io.errorStyles.yellow("warning")}: the body is not a valid webhook payload (${result.error.code}${
      first === undefined ? "" : `: ${printable(first.message)}`
    }); signed anyway\n`,
  );
}
