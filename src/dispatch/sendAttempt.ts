import { quote } from "../internal/describe.js";
import { errorTypeOf } from "../internal/errorType.js";
import { parseRetryAfter } from "../internal/retryAfter.js";
import type { WebhookSigner } from "../webhooks/createWebhookSigner.js";
import { WEBHOOK_ID_HEADER } from "../webhooks/webhookIdHeader.js";
import type { AttemptResponse } from "./DeliveryQueue.js";
import { isDispatchError } from "./DispatchError.js";
import type { CheckedLookup, Transport } from "./nodeTransport.js";

/** How much of a response body is read (so the connection can be reused) before it is cancelled. */
export const MAX_DRAINED_BYTES = 64 * 1024;

/** How much of a response body is kept to show why an endpoint fails. */
export const EXCERPT_BYTES = 1024;

/** The `errorType` of an attempt whose destination was refused. */
const DESTINATION_REFUSED = "destination_refused";

/** The reason of an attempt whose destination was refused: the same for every target. */
export const DESTINATION_REFUSED_REASON =
  "destination refused: the host does not resolve to a public address, or one allowed by destinations.allow";

/** What one attempt came to. */
export interface AttemptResult {
  /** The `service-timestamp` it was signed with. */
  readonly timestamp: string;
  /** The HTTP status, `undefined` when no response came. */
  readonly status: number | undefined;
  /** `"delivered"` for a 2xx, `"gone"` for a 410, `"failed"` for anything else. */
  readonly outcome: "delivered" | "gone" | "failed";
  /** What a `Retry-After` on a 429 or 503 asked for. */
  readonly retryAfterMs: number | undefined;
  /** The status and the first bytes of the answer, when one came. */
  readonly response: AttemptResponse | undefined;
  /** Why it failed, in words. */
  readonly reason: string | undefined;
  /**
   * Why it failed, for telemetry: the status (`"503"`), `"timeout"`, the network error's code
   * (`"ECONNREFUSED"`) or `"destination_refused"`; `undefined` when delivered.
   */
  readonly errorType: string | undefined;
}

export interface AttemptInput {
  readonly fetch: Transport;
  /** Resolves and checks the host before `fetch` is called, when `fetch` cannot do it at connect time. */
  readonly checkFirst: CheckedLookup | undefined;
  readonly url: string;
  /** The endpoint's own headers (checked: none of the signed ones). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
  readonly deliveryId: string;
  readonly signer: WebhookSigner;
  readonly timeoutMs: number;
  /** Runs the request within the attempt's trace context, when it has one. */
  readonly run?: <T>(fn: () => T) => T;
}

const isRedirect = (response: Response): boolean =>
  response.type === "opaqueredirect" ||
  (response.status >= 300 && response.status < 400) ||
  response.redirected === true;

/** Names a network failure by its error code (`ECONNREFUSED`), never by its message, which may hold the URL. */
function networkReason(error: unknown): string {
  let code: unknown;
  try {
    code = (error as { cause?: { code?: unknown } })?.cause?.code ?? (error as { code?: unknown })?.code;
  } catch {
    code = undefined;
  }
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{0,39}$/.test(code)
    ? `network error (${code})`
    : "network error";
}

/**
 * Text of a body's first bytes: invalid UTF-8 and control characters (but tab and line ends) become
 * U+FFFD, then the text is cut to {@link EXCERPT_BYTES} of UTF-8, never inside a character.
 */
function excerptOf(bytes: Uint8Array): string {
  let end = bytes.byteLength;
  // A character cut by the read is dropped whole: step back over continuation bytes to its start.
  if (end > EXCERPT_BYTES) {
    let start = end;
    while (start > 0 && start > end - 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
    end = start;
  }
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true })
    .decode(bytes.subarray(0, end))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g, "\ufffd");
  let kept = 0;
  let cut = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (kept + size > EXCERPT_BYTES) break;
    kept += size;
    cut += character.length;
  }
  return text.slice(0, cut);
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Reads at most {@link MAX_DRAINED_BYTES} of a body (so that the connection can be reused), keeps
 * the first {@link EXCERPT_BYTES}, then lets go of the rest. Never throws.
 */
async function drain(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (body === null) return "";
  const kept = new Uint8Array(EXCERPT_BYTES + 4);
  let keptBytes = 0;
  let read = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    reader = body.getReader();
    while (read < MAX_DRAINED_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!(value instanceof Uint8Array)) break;
      if (keptBytes < kept.byteLength) {
        const take = Math.min(kept.byteLength - keptBytes, value.byteLength);
        kept.set(value.subarray(0, take), keptBytes);
        keptBytes += take;
      }
      read += value.byteLength;
    }
  } catch {
    // A body that fails mid-way: what came is kept.
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
  return excerptOf(kept.subarray(0, keptBytes));
}

/**
 * Makes one attempt: signs the body afresh (a new `service-timestamp` and signature), POSTs it with
 * `redirect: "manual"` under a time-out that covers the response body too, drains at most
 * {@link MAX_DRAINED_BYTES} of the answer and classifies it. Never throws.
 */
export async function sendAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { body, timeoutMs } = input;
  const signed = await input.signer.sign({ payload: body, timestamp: new Date() });
  const timestamp = signed.headers["service-timestamp"];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), timeoutMs);
  let answered: AttemptResponse | undefined;
  const failed = (
    status: number | undefined,
    reason: string,
    retryAfterMs?: number,
    errorType: string = String(status),
  ): AttemptResult => ({
    timestamp,
    status,
    outcome: "failed",
    retryAfterMs,
    reason,
    errorType,
    response: answered,
  });
  try {
    let response: Response;
    try {
      if (input.checkFirst !== undefined) {
        // A resolver that never answers is cut by the attempt's time-out like the request itself.
        await untilAborted(
          input.checkFirst(new URL(input.url).hostname.replace(/^\[(.*)\]$/, "$1")),
          controller.signal,
        );
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of input.headers) headers[name] = value;
      const init: RequestInit = {
        method: "POST",
        headers: { ...headers, ...signed.headers, [WEBHOOK_ID_HEADER]: input.deliveryId },
        body: signed.body,
        redirect: "manual",
        signal: controller.signal,
      };
      const { run } = input;
      response = await (run === undefined
        ? input.fetch(input.url, init)
        : run(() => input.fetch(input.url, init)));
    } catch (error) {
      if (isDispatchError(error) && error.code === "ERR_DISPATCH_DESTINATION_REFUSED") {
        return failed(undefined, DESTINATION_REFUSED_REASON, undefined, DESTINATION_REFUSED);
      }
      const cause = (() => {
        try {
          return (error as { cause?: unknown })?.cause;
        } catch {
          return undefined;
        }
      })();
      if (isDispatchError(cause) && cause.code === "ERR_DISPATCH_DESTINATION_REFUSED") {
        return failed(undefined, DESTINATION_REFUSED_REASON, undefined, DESTINATION_REFUSED);
      }
      return controller.signal.aborted
        ? failed(undefined, `timed out after ${timeoutMs} ms`, undefined, "timeout")
        : failed(undefined, networkReason(error), undefined, errorTypeOf(error));
    }
    const { status } = response;
    if (isRedirect(response)) {
      answered = { status, body: await drain(response.body) };
      return failed(status, `answered ${status}, a redirect (never followed)`);
    }
    // Read a little of the answer (its first bytes kept) so that the connection can be reused.
    answered = { status, body: await drain(response.body) };
    if (status >= 200 && status < 300)
      return {
        timestamp,
        status,
        outcome: "delivered",
        retryAfterMs: undefined,
        reason: undefined,
        errorType: undefined,
        response: answered,
      };
    if (status === 410)
      return {
        timestamp,
        status,
        outcome: "gone",
        retryAfterMs: undefined,
        reason: "answered 410 Gone",
        errorType: "410",
        response: answered,
      };
    if (status === 429 || status === 503) {
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now());
      const asked =
        retryAfterMs === undefined
          ? ""
          : ` (Retry-After ${quote(response.headers.get("retry-after") ?? "")})`;
      return failed(status, `answered ${status}${asked}`, retryAfterMs);
    }
    return failed(status, `answered ${status}`);
  } finally {
    clearTimeout(timer);
  }
}
