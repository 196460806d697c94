import { safeVerifyWebhook, safeVerifyWebhookSignature, type WebhookHeaders } from "../../webhooks/index.js";
import type { Command } from "../Command.js";
import { booleanFlag, integerFlag, stringFlag } from "../parseArgs.js";
import { HttpRequestFileError, parseHttpRequest } from "../parseHttpRequest.js";
import { readInput, readSecrets } from "../readInputs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";

const secretFlags = { env: "secret-env", file: "secret-file" };

interface Verdict {
  readonly valid: boolean;
  readonly code?: string;
  readonly message?: string;
  readonly type?: string;
  readonly timestamp?: string;
  readonly signature?: string;
  readonly issues?: readonly { pointer: string; code: string; message: string }[];
}

/** The captured request: headers and body from a raw request file, or a body and two header values. */
async function capturedRequest(
  args: Parameters<Command["run"]>[0],
  io: Parameters<Command["run"]>[1],
  maxBytes: number,
): Promise<{ body: Uint8Array; headers: WebhookHeaders }> {
  const requestFile = stringFlag(args, "request");
  const timestamp = stringFlag(args, "timestamp");
  const signature = stringFlag(args, "signature");
  if (requestFile !== undefined) {
    if (args.positionals.length > 0 || timestamp !== undefined || signature !== undefined) {
      throw new UsageError(
        "--request takes the body and headers from the file: give no body file, --timestamp or --signature",
      );
    }
    const bytes = await readInput(requestFile, io.stdin, maxBytes + 64 * 1024, "the request file");
    try {
      const request = parseHttpRequest(bytes);
      const headers: Record<string, string[]> = {};
      for (const [name, value] of request.headers) {
        const key = name.toLowerCase();
        headers[key] = [...(headers[key] ?? []), value];
      }
      return { body: request.body, headers };
    } catch (error) {
      if (error instanceof HttpRequestFileError)
        throw new UsageError(`the request file is not an HTTP request: ${error.message}`);
      throw error;
    }
  }
  if (args.positionals.length > 1) throw new UsageError("verify takes one body file");
  if (timestamp === undefined || signature === undefined) {
    throw new UsageError(
      "verify needs the service-timestamp and service-signature values, or a captured request",
      "--timestamp VALUE --signature VALUE [body-file], or --request FILE",
    );
  }
  const body = await readInput(args.positionals[0], io.stdin, maxBytes, "the body");
  return { body, headers: { "service-timestamp": timestamp, "service-signature": signature } };
}

/** `messaging-events verify`: checks a captured webhook request and prints the verdict with its code. */
export const verifyCommand: Command = {
  name: "verify",
  summary: "Check the signature (and payload) of a captured webhook request and print the verdict.",
  usage: "verify [options] (--request FILE | --timestamp VALUE --signature VALUE [body-file])",
  description: `Verifies a webhook as a receiver does: the signature over "<service-timestamp>:<raw body>"
under the secret (any of several, during a rotation), the time window, then the payload. The
request is either a raw HTTP request file (--request FILE: request line, headers, a blank line, the
body; Content-Length and chunked encoding are honoured), or a body (a file, or standard input) with
the header values given by --timestamp and --signature.

A captured request is usually older than the 300-second window: pass --now with a time near the
capture, or a wider --tolerance.

Prints "valid" with the payload type, or "invalid" with the error code (ERR_WEBHOOK_SIGNATURE_MISMATCH,
ERR_WEBHOOK_TIMESTAMP_TOO_OLD, ERR_WEBHOOK_PAYLOAD_INVALID…) and its message; --format json prints
one JSON object. Neither the secret nor the expected signature is ever printed.

Exit status: 0 valid, 1 invalid, 2 for a usage error.`,
  flags: [
    {
      name: "secret-env",
      type: "list",
      placeholder: "NAME",
      description: "the environment variable that holds a secret",
    },
    { name: "secret-file", type: "list", placeholder: "PATH", description: "a file that holds a secret" },
    { name: "request", type: "string", placeholder: "FILE", description: "a raw HTTP request file" },
    {
      name: "timestamp",
      type: "string",
      placeholder: "VALUE",
      description: "the service-timestamp header value",
    },
    {
      name: "signature",
      type: "string",
      placeholder: "VALUE",
      description: "the service-signature header value",
    },
    {
      name: "tolerance",
      type: "string",
      placeholder: "SECONDS",
      description: "how far the timestamp may lie from now, either way (default: 300)",
    },
    {
      name: "now",
      type: "string",
      placeholder: "TIME",
      description: "check as of this RFC 3339 date-time instead of the current time",
    },
    {
      name: "signature-only",
      type: "boolean",
      description: "check the signature only, not the payload",
    },
    {
      name: "format",
      type: "string",
      values: ["human", "json"],
      placeholder: "FORMAT",
      description: "human (default) or json",
    },
    {
      name: "max-body-bytes",
      type: "string",
      placeholder: "BYTES",
      description: "the largest body read (default: 1048576)",
    },
  ],
  examples: [
    "messaging-events verify --secret-env WEBHOOK_SECRET --request captured.http --now 2026-11-22T18:00:05Z",
    'messaging-events verify --secret-env WEBHOOK_SECRET --timestamp "$TS" --signature "$SIG" body.json',
    "messaging-events verify --secret-env NEW_SECRET --secret-env OLD_SECRET --request captured.http --tolerance 86400",
  ],
  async run(args, io) {
    const secrets = await readSecrets(args, secretFlags, "verify", io.env);
    const toleranceSeconds = integerFlag(args, "tolerance", 300, 0, 100 * 365 * 24 * 3600);
    const nowText = stringFlag(args, "now");
    const now = nowText === undefined ? undefined : Date.parse(nowText);
    if (now !== undefined && (Number.isNaN(now) || !/^\d{4}-\d\d-\d\dT/.test(nowText!))) {
      throw new UsageError("--now must be an RFC 3339 date-time", "--now 2026-11-22T18:00:05Z");
    }
    const maxBytes = integerFlag(args, "max-body-bytes", 1024 * 1024, 1, 1024 * 1024 * 1024);
    const { body, headers } = await capturedRequest(args, io, maxBytes);
    const options = {
      body,
      headers,
      secret: secrets,
      toleranceSeconds,
      ...(now === undefined ? {} : { now }),
    };
    let verdict: Verdict;
    if (booleanFlag(args, "signature-only")) {
      const result = await safeVerifyWebhookSignature(options);
      verdict = result.ok
        ? { valid: true, timestamp: result.timestamp.toISOString(), signature: result.signature }
        : { valid: false, code: result.error.code, message: result.error.message };
    } else {
      const result = await safeVerifyWebhook(options);
      if (result.ok) {
        verdict = {
          valid: true,
          type: result.payload.type,
          timestamp: result.timestamp.toISOString(),
          signature: result.signature,
        };
      } else if (result.error.code !== "ERR_WEBHOOK_PAYLOAD_INVALID") {
        verdict = { valid: false, code: result.error.code, message: result.error.message };
      } else {
        const { error } = result;
        verdict = {
          valid: false,
          code: error.code,
          message: "the request is authentic, but its body is not a valid webhook payload",
          issues: error.issues.map((issue) => ({
            pointer: issue.pointer,
            code: issue.code,
            message: issue.message,
          })),
        };
      }
    }
    if (stringFlag(args, "format") === "json") io.stdout.write(`${JSON.stringify(verdict)}\n`);
    else printVerdict(verdict, io);
    return verdict.valid ? EXIT.ok : EXIT.failed;
  },
};

function printVerdict(verdict: Verdict, io: Parameters<Command["run"]>[1]): void {
  const { styles } = io;
  if (verdict.valid) {
    const what = verdict.type === undefined ? "signature" : printable(verdict.type);
    io.stdout.write(`${styles.green("valid")}: ${what}, signed at ${verdict.timestamp}\n`);
    io.stdout.write(`${styles.dim(`signature (hex, for de-duplication): ${verdict.signature}`)}\n`);
    return;
  }
  io.stdout.write(`${styles.red("invalid")}: ${verdict.code}: ${printable(verdict.message ?? "")}\n`);
  for (const issue of verdict.issues ?? []) {
    const at = issue.pointer === "" ? "" : `${styles.yellow(printable(issue.pointer))}: `;
    io.stdout.write(`  ${at}${printable(issue.message)} ${styles.dim(`(${issue.code})`)}\n`);
  }
}
