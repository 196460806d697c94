import { quote } from "../internal/describe.js";
import { readBytesWithLimit } from "../internal/readBytesWithLimit.js";
import { parseRetryAfter } from "../internal/retryAfter.js";
import type { WebhookSigner } from "../webhooks/createWebhookSigner.js";
import { WEBHOOK_ID_HEADER } from "../webhooks/webhookIdHeader.js";

/** How much of a response body is read (so the connection can be reused) before it is cancelled. */
export const MAX_DRAINED_BYTES = 64 * 1024;

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
  /** Why it failed, in words. */
  readonly reason: string | undefined;
}

export interface AttemptInput {
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>;
  readonly url: string;
  readonly body: string;
  readonly deliveryId: string;
  readonly signer: WebhookSigner;
  readonly timeoutMs: number;
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
  const failed = (status: number | undefined, reason: string, retryAfterMs?: number): AttemptResult => ({
    timestamp,
    status,
    outcome: "failed",
    retryAfterMs,
    reason,
  });
  try {
    let response: Response;
    try {
      response = await input.fetch(input.url, {
        method: "POST",
        headers: { ...signed.headers, [WEBHOOK_ID_HEADER]: input.deliveryId },
        body: signed.body,
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (error) {
      return failed(
        undefined,
        controller.signal.aborted ? `timed out after ${timeoutMs} ms` : networkReason(error),
      );
    }
    const { status } = response;
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => undefined);
      return failed(status, `answered ${status}, a redirect (never followed)`);
    }
    // Read a little of the answer so that the connection can be reused, then let go of the rest.
    await readBytesWithLimit(response.body, MAX_DRAINED_BYTES).catch(() => undefined);
    if (status >= 200 && status < 300)
      return { timestamp, status, outcome: "delivered", retryAfterMs: undefined, reason: undefined };
    if (status === 410)
      return { timestamp, status, outcome: "gone", retryAfterMs: undefined, reason: "answered 410 Gone" };
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
