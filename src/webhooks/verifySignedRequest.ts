import { bytesOf } from "../internal/bytes.js";
import {
  checkSignedHeaders,
  kindOf,
  numberOption,
  own,
  type VerifiedWebhookSignature,
  verifySignedBody,
} from "./verifySignedWebhook.js";
import { fail } from "./WebhookVerificationError.js";

/** The default of `maxBodyBytes`: 1 MiB. */
export const MAX_BODY_BYTES = 1_048_576;

/** The default of `timeoutMs`: 30 seconds. */
export const READ_TIMEOUT_MS = 30_000;

/** The longest delay `setTimeout` keeps (about 24.8 days); a longer time-out never fires. */
const MAX_DELAY = 2 ** 31 - 1;

/** What a request verification reads besides the request and the keys. */
export interface RequestCheck {
  readonly toleranceMs?: unknown;
  readonly now?: unknown;
  readonly maxBodyBytes?: unknown;
  readonly signal?: unknown;
  readonly timeoutMs?: unknown;
}

const timedOutMessage = (timeoutMs: number) =>
  `timed out: the request body was not read to the end within timeoutMs (${timeoutMs} ms)`;

/**
 * Reads a body stream chunk by chunk, at most `max` bytes: past the cap it cancels the stream and
 * fails, so a never-ending body costs no more than the cap. An abort of `signal`, or `timeoutMs`
 * passing, cancels the read, so a body that never arrives costs no more than the time-out.
 */
async function readBody(
  stream: ReadableStream | null,
  max: number,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener("abort", onAbort);
  let timedOut = false;
  const timer =
    timeoutMs > MAX_DELAY
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          reader.cancel().catch(() => undefined);
        }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<unknown>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (timedOut) return fail("ABORTED", timedOutMessage(timeoutMs), cause);
        return fail("ABORTED", "the request body could not be read to the end", cause);
      }
      // A cancelled read ends as if the body were complete: the signal and the timer tell them apart.
      if (signal?.aborted)
        fail("ABORTED", "the signal aborted while the request body was read", signal.reason);
      if (timedOut) fail("ABORTED", timedOutMessage(timeoutMs));
      if (chunk.done) break;
      const bytes =
        bytesOf(chunk.value) ??
        fail("INVALID_INPUT", "the request body stream gave something other than bytes");
      total += bytes.length;
      if (total > max) {
        reader.cancel().catch(() => undefined);
        fail("BODY_TOO_LARGE", `the request body is larger than maxBodyBytes (${max} bytes)`);
      }
      chunks.push(bytes);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** `timeoutMs`: a number > 0, `Infinity` for none. */
function timeoutOption(value: unknown): number {
  if (value === Number.POSITIVE_INFINITY) return value;
  const timeoutMs = numberOption("timeoutMs", value, READ_TIMEOUT_MS);
  return timeoutMs > 0
    ? timeoutMs
    : fail("INVALID_INPUT", "timeoutMs must be a number > 0, or Infinity for none");
}

/**
 * Verifies a Fetch `Request` in the order that reads as little as possible: the options (the keys
 * were checked by the caller), the request's kind and whether its body is still unread, the
 * signed headers, `Content-Length` against `maxBodyBytes`, and only then the body, read up to the
 * cap, then the HMAC and the JSON.
 */
export async function verifySignedRequest(
  request: unknown,
  check: RequestCheck,
  keys: Promise<readonly CryptoKey[]>,
): Promise<VerifiedWebhookSignature> {
  const signal = own(check, "signal");
  const max = numberOption("maxBodyBytes", own(check, "maxBodyBytes"), MAX_BODY_BYTES, true);
  const timeoutMs = timeoutOption(own(check, "timeoutMs"));
  if (
    signal !== undefined &&
    (typeof (signal as AbortSignal).addEventListener !== "function" ||
      typeof (signal as AbortSignal).aborted !== "boolean")
  ) {
    fail("INVALID_INPUT", `signal must be an AbortSignal, not ${kindOf(signal)}`);
  }
  const fetchRequest = request as Request;
  let isRequest = false;
  try {
    isRequest =
      typeof request === "object" &&
      request !== null &&
      typeof fetchRequest.headers?.get === "function" &&
      typeof fetchRequest.bodyUsed === "boolean";
  } catch {
    // A proxy whose traps throw is not a request either.
  }
  if (!isRequest) {
    fail(
      "INVALID_INPUT",
      `request is ${kindOf(request)}, not a Fetch Request: for a raw body and headers, use verifyWebhook({ body, headers, secret })`,
    );
  }
  const stream = fetchRequest.body;
  if (fetchRequest.bodyUsed || stream?.locked) {
    fail(
      "BODY_USED",
      "the request body was already read: verify the request before parsing it (or pass the raw bytes to verifyWebhook)",
    );
  }
  const signed = checkSignedHeaders({ ...check, headers: fetchRequest.headers });
  const length = Number(fetchRequest.headers.get("content-length"));
  if (length > max)
    fail(
      "BODY_TOO_LARGE",
      `the request body is larger than maxBodyBytes (${max} bytes): Content-Length ${length}`,
    );
  if ((signal as AbortSignal | undefined)?.aborted)
    fail("ABORTED", "the signal aborted before the request body was read", (signal as AbortSignal).reason);
  return verifySignedBody(
    signed,
    keys,
    await readBody(stream, max, signal as AbortSignal | undefined, timeoutMs),
  );
}
