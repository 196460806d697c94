import { safeVerifyWebhook, safeVerifyWebhookSignature, type WebhookHeaders } from "../../webhooks/index.js";
import type { Command } from "../Command.js";
import { humanDuration } from "../humanDuration.js";
import { booleanFlag, integerFlag, stringFlag } from "../parseArgs.js";
import { HttpRequestFileError, parseHttpRequest } from "../parseHttpRequest.js";
import { readInput, readSecrets, secretFlags } from "../readInputs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";

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

A captured request is usually older than the 5-minute window: pass --now with a time near the
capture, or a wider --tolerance-ms.

The secret comes from --secret-env NAME or --secret-file PATH, never from the command line; during a
rotation, repeat them (newest first): any of them verifies.

Prints "valid" with the payload type, or "invalid" with the error code (ERR_WEBHOOK_SIGNATURE_MISMATCH,
ERR_WEBHOOK_TIMESTAMP_TOO_OLD, ERR_WEBHOOK_PAYLOAD_INVALID…) and its message; --format json prints
one JSON object. Neither the secret nor the expected signature is ever printed.

Exit status: 0 valid, 1 invalid, 2 for a usage error.`,
  flags: [
    ...secretFlags,
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
      name: "tolerance-ms",
      type: "string",
      placeholder: "MS",
      description: "how far the timestamp may lie from now, either way, in milliseconds (default: 300000)",
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
    "messaging-events verify --secret-env NEW_SECRET --secret-env OLD_SECRET --request captured.http --tolerance-ms 86400000",
  ],
  async run(args, io) {
    const secrets = await readSecrets(args, "verify", io.env);
    const toleranceMs = integerFlag(args, "tolerance-ms", 300_000, 0, 100 * 365 * 24 * 3600 * 1000);
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
      toleranceMs,
      ...(now === undefined ? {} : { now }),
    };
    let verdict: Verdict;
    if (booleanFlag(args, "signature-only")) {
      const result = await safeVerifyWebhookSignature(options);
      verdict = result.success
        ? { valid: true, timestamp: result.timestamp.toISOString(), signature: result.signature }
        : {
            valid: false,
            code: result.error.code,
            message: failure(result.error, headers, now, toleranceMs),
          };
    } else {
      const result = await safeVerifyWebhook(options);
      if (result.success) {
        verdict = {
          valid: true,
          type: result.data.type,
          timestamp: result.timestamp.toISOString(),
          signature: result.signature,
        };
      } else if (result.error.code !== "ERR_WEBHOOK_PAYLOAD_INVALID") {
        verdict = {
          valid: false,
          code: result.error.code,
          message: failure(result.error, headers, now, toleranceMs),
        };
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

/**
 * What a refusal says: the library's message, except for a timestamp outside the window, said in
 * the units a person reads ("signed 3 years ago"), with the flags that change the window.
 */
function failure(
  error: { readonly code: string; readonly message: string },
  headers: WebhookHeaders,
  now: number | undefined,
  toleranceMs: number,
): string {
  const tooOld = error.code === "ERR_WEBHOOK_TIMESTAMP_TOO_OLD";
  if (!tooOld && error.code !== "ERR_WEBHOOK_TIMESTAMP_IN_FUTURE") return error.message;
  const value = (headers as Record<string, string | readonly string[] | undefined>)["service-timestamp"];
  const signedAt = Date.parse(typeof value === "string" ? value : (value?.[0] ?? ""));
  if (Number.isNaN(signedAt)) return error.message;
  const drift = (now ?? Date.now()) - signedAt;
  return `signed ${humanDuration(drift)} ${tooOld ? "ago" : "in the future"}, outside the tolerance of ${humanDuration(toleranceMs)} (${tooOld ? "a capture: check it as of then with --now, or widen --tolerance-ms" : "a clock is off, or widen --tolerance-ms"})`;
}

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
