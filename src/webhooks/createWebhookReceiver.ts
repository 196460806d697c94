import { bytesOf, utf8 } from "../internal/bytes.js";
import { readHeader } from "../internal/headerValue.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import {
  createNodeListener,
  type NodeRequestLike,
  type NodeResponseLike,
} from "../server/createNodeListener.js";
import { isDeliveryId, replayGuardOf } from "./createWebhookReplayGuard.js";
import { normalizeReceiverOptions } from "./normalizeReceiverOptions.js";
import { closedError, failed, processVerified } from "./processVerifiedWebhook.js";
import { verifySignedRequest } from "./verifySignedRequest.js";
import { bodyBytes, type VerifiedWebhookSignature, verifySignedWebhook } from "./verifySignedWebhook.js";
import { type SafeVerifyWebhookResult, validateVerified } from "./verifyWebhook.js";
import type { WebhookBody } from "./WebhookBody.js";
import type { WebhookHeaders } from "./WebhookHeaders.js";
import type { WebhookReceipt } from "./WebhookReceipt.js";
import type { WebhookReceiverOptions } from "./WebhookReceiverOptions.js";
import type { WebhookTelemetry } from "./WebhookTelemetry.js";
import { WebhookVerificationError } from "./WebhookVerificationError.js";
import { WEBHOOK_ID_HEADER } from "./webhookIdHeader.js";
import type { WebhookPayload } from "./webhookPayloadSchema.js";

/**
 * A Node.js request as the receiver's `node` listener reads it: `node:http`'s `IncomingMessage`,
 * with the `body` a framework may have put on it (the raw bytes of `express.raw`).
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { WebhookNodeRequest } from "messaging-events/webhooks";
 *
 * const hasRawBody = (req: WebhookNodeRequest) => req.body instanceof Uint8Array;
 * ```
 */
export interface WebhookNodeRequest extends NodeRequestLike {
  /** The body a middleware read: raw bytes or text are used as they are; a parsed object is refused (500). */
  readonly body?: unknown;
  /** Whether the body stream was already read (a body parser ran). */
  readonly readableDidRead?: boolean;
  /** Whether the body stream already ended. */
  readonly readableEnded?: boolean;
}

/**
 * A webhook receiver: see {@link createWebhookReceiver}.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookReceiver, type WebhookReceiver } from "messaging-events/webhooks";
 *
 * const receiver: WebhookReceiver = createWebhookReceiver({ secret: "whsec_test" });
 * await receiver.close();
 * ```
 */
export interface WebhookReceiver {
  /**
   * The Fetch handler, `(Request) => Promise<Response>`: for Workers, Deno, Bun, Next.js route
   * handlers and Hono (`c.req.raw`). Reads the body once, up to `maxBodyBytes`. Never rejects.
   */
  readonly fetch: (request: Request) => Promise<Response>;
  /**
   * The Node.js listener, `(req, res) => void`, for `node:http` and Express: it streams the body
   * itself, or uses the raw bytes a middleware left in `req.body` (`express.raw`); a body already
   * parsed or read is a configuration error (500), never a hang.
   */
  readonly node: (req: WebhookNodeRequest, res: NodeResponseLike) => void;
  /**
   * Processes a webhook whose raw body you already hold (Fastify's buffer parser, NestJS's
   * `rawBody`) and resolves to the answer to write. Never rejects.
   */
  readonly receive: (input: {
    /** The raw body. `undefined` (a framework that kept no raw body) is answered 500 with the fix. */
    readonly body: WebhookBody | undefined;
    readonly headers: WebhookHeaders;
  }) => Promise<WebhookReceipt>;
  /**
   * Stops taking webhooks (503 from then on), waits for those under way (at most `leaseMs`, after
   * which their `signal` aborts), and closes the store it created. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Creates a webhook receiver that verifies, dispatches by type and answers, so that no webhook is
 * lost and none is handled twice:
 *
 * 1. it verifies the signature and the time window (401, 413, 408), then validates the payload
 *    (422): nothing unauthenticated is parsed;
 * 2. it claims the delivery in the replay store, by `service-webhook-id` and by signature: a
 *    delivery already processed is answered 204 without running anything; one being handled right
 *    now 409 with `Retry-After`; an exact replay under another id, or without one, is refused (401);
 *    a store that cannot answer gives 503;
 * 3. it runs the handler of the payload's type, its payload narrowed to that type (`onAny` for
 *    types without one; none at all is a 204), keeping the claim alive while it runs;
 * 4. it completes the claim and answers 204 when the handler returns, or releases it and answers
 *    500 when it throws, so that the sender's retry runs it again.
 *
 * Every non-2xx answer goes to `onError` with its `WebhookVerificationError`; the body of every
 * answer is `{ code, message }`, never your error's own message.
 *
 * Exported from `messaging-events/webhooks` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { createWebhookReceiver, createWebhookRequest } from "messaging-events/webhooks";
 *
 * const receiver = createWebhookReceiver({
 *   secret: "whsec_test",
 *   on: {
 *     "s.message.text": async (payload) => console.log(payload.roomId, payload.content.body),
 *   },
 *   onError: (error) => console.warn(error.code, error.message),
 * });
 * const request = await createWebhookRequest("https://example.com/hooks", {
 *   payload: { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-1" },
 *   secret: "whsec_test",
 * });
 * const response = await receiver.fetch(request);
 * console.log(response.status); // 204
 * await receiver.close();
 * ```
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const settings = normalizeReceiverOptions(options);
  const guard = replayGuardOf(settings.guard);
  const { toleranceMs } = settings;
  let closing: Promise<void> | undefined;
  let running = 0;
  let drained: (() => void) | undefined;

  const respond = async (
    headers: unknown,
    verify: () => Promise<VerifiedWebhookSignature>,
    verified?: (result: SafeVerifyWebhookResult) => void,
  ): Promise<WebhookReceipt> => {
    if (closing) return failed(settings, closedError(), undefined, undefined);
    running++;
    try {
      const result = await validateVerified(verify);
      verified?.(result);
      return await processVerified(settings, guard, headers, result);
    } catch (cause) {
      // Only a bug of this library comes here: answered, never thrown at the server.
      const error = new WebhookVerificationError(
        "ERR_WEBHOOK_INVALID_INPUT",
        "an unexpected failure (see cause)",
        {
          cause,
        },
      );
      return failed(settings, error, undefined, undefined);
    } finally {
      if (--running === 0) drained?.();
    }
  };
  /** The answer within the webhook's trace, which hears its outcome (the delivery id once verified). */
  const traced = async (
    trace: ReturnType<WebhookTelemetry["startWebhook"]>,
    headers: unknown,
    verify: () => Promise<VerifiedWebhookSignature>,
  ): Promise<WebhookReceipt> => {
    let receipt: WebhookReceipt | undefined;
    let learnt: { eventType?: WebhookPayload["type"]; deliveryId?: string } = {};
    try {
      receipt = await trace.run(() =>
        respond(headers, verify, (result) => {
          if (!result.success) return;
          const id = readHeader(headers, WEBHOOK_ID_HEADER);
          learnt = {
            eventType: result.data.type,
            deliveryId: isDeliveryId(id?.value) ? id.value : undefined,
          };
        }),
      );
      return receipt;
    } finally {
      trace.end({
        code: receipt?.error?.code,
        status: receipt?.status ?? 500,
        eventType: learnt.eventType,
        deliveryId: learnt.deliveryId,
      });
    }
  };
  const { telemetry } = settings;
  const answer = (
    headers: unknown,
    verify: () => Promise<VerifiedWebhookSignature>,
  ): Promise<WebhookReceipt> => {
    const trace = telemetry?.startWebhook({ operation: "receive" });
    return trace === undefined ? respond(headers, verify) : traced(trace, headers, verify);
  };

  const receive: WebhookReceiver["receive"] = (input) =>
    answer(safeRead(input, "headers"), async () => {
      const raw = safeRead(input, "body");
      const body = bodyBytes(raw);
      if (body.length > settings.maxBodyBytes) {
        throw new WebhookVerificationError(
          "ERR_WEBHOOK_BODY_TOO_LARGE",
          `the request body is larger than maxBodyBytes (${settings.maxBodyBytes} bytes)`,
        );
      }
      return verifySignedWebhook({ body, headers: safeRead(input, "headers"), toleranceMs }, settings.keys);
    });

  const fetch: WebhookReceiver["fetch"] = async (request) => {
    const receipt = await answer(safeRead(request, "headers"), () =>
      verifySignedRequest(
        request,
        { toleranceMs, maxBodyBytes: settings.maxBodyBytes, timeoutMs: settings.bodyTimeoutMs },
        settings.keys,
      ),
    );
    return new Response(receipt.body === "" ? null : receipt.body, {
      status: receipt.status,
      headers: receipt.headers,
    });
  };

  const streamed = createNodeListener(fetch, (cause) => {
    const receipt = failed(
      settings,
      new WebhookVerificationError(
        "ERR_WEBHOOK_INVALID_INPUT",
        "the request could not be read as a Fetch Request (see cause)",
        { cause },
      ),
      undefined,
      undefined,
    );
    return new Response(receipt.body, { status: receipt.status, headers: receipt.headers });
  });
  const node: WebhookReceiver["node"] = (req, res) => {
    const body = safeRead(req, "body");
    const raw = typeof body === "string" || bytesOf(body) !== undefined;
    const parsed = !raw && body !== undefined && !isEmptyObject(body);
    const read = safeRead(req, "readableDidRead") === true || safeRead(req, "readableEnded") === true;
    if (!raw && !parsed && !read) {
      streamed(req, res);
      return;
    }
    void (async () => {
      const receipt =
        raw || parsed
          ? await receive({ body: body as WebhookBody, headers: safeNodeHeaders(req) })
          : failed(
              settings,
              new WebhookVerificationError(
                "ERR_WEBHOOK_BODY_USED",
                "the request body was already read by a body parser: mount the receiver before it, or use express.raw on this route",
              ),
              undefined,
              undefined,
            );
      const headers: string[] = [];
      for (const [name, value] of Object.entries(receipt.headers)) headers.push(name, value);
      try {
        res.writeHead(receipt.status, headers);
        res.end(utf8(receipt.body));
      } catch {
        // The connection is gone: nothing left to answer.
      }
    })();
  };

  return {
    fetch,
    node,
    receive,
    close() {
      closing ??= (async () => {
        if (running > 0) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await new Promise<void>((resolve) => {
            drained = resolve;
            timer = setTimeout(resolve, settings.guard.leaseMs);
          });
          clearTimeout(timer);
        }
        await guard.close();
      })();
      return closing;
    },
  };
}

/** Reads one property of something a caller passed, or `undefined` if reading it throws. */
function safeRead(value: unknown, name: string): unknown {
  try {
    return (value as Record<string, unknown> | null | undefined)?.[name];
  } catch {
    return undefined;
  }
}

function isEmptyObject(value: unknown): boolean {
  try {
    return isPlainObject(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}

function safeNodeHeaders(req: NodeRequestLike): WebhookHeaders {
  try {
    return nodeHeaders(req);
  } catch {
    return {};
  }
}

/** Node's request headers as a Fetch `Headers` from `rawHeaders`, so a repeated header stays visible. */
function nodeHeaders(req: NodeRequestLike): WebhookHeaders {
  const raw = safeRead(req, "rawHeaders");
  if (!Array.isArray(raw)) return (safeRead(req, "headers") ?? {}) as WebhookHeaders;
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(String(raw[i]), String(raw[i + 1]));
    } catch {
      // A header Fetch cannot hold is left out.
    }
  }
  return headers;
}
