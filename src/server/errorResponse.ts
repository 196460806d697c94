import { JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import type { JsonApiError } from "../jsonapi/toJsonApiErrors.js";

/**
 * The stable `code` of the events handler's own error responses (validation failures, 422, carry the
 * issue codes of the document validator instead: `too_long`, `required`, …):
 *
 * - `ERR_NOT_FOUND` (404), `ERR_METHOD_NOT_ALLOWED` (405), `ERR_UNAUTHORIZED` (401);
 * - `ERR_UNSUPPORTED_MEDIA_TYPE` (415), `ERR_NOT_ACCEPTABLE` (406), `ERR_BODY_TOO_LARGE` (413),
 *   `ERR_BODY_NOT_JSON` (400), `ERR_BODY_TIMEOUT` (408: not received in full within `bodyTimeoutMs`),
 *   `ERR_BODY_ALREADY_READ` (500: a body parser consumed the body before `createNodeListener`);
 * - `ERR_IDEMPOTENCY_KEY_INVALID` (400: invalid, or a repeated header), `ERR_IDEMPOTENCY_KEY_MISMATCH`
 *   (400: header and meta differ), `ERR_IDEMPOTENCY_KEY_IN_FLIGHT` (409), `ERR_IDEMPOTENCY_KEY_REUSED`
 *   (422: the key was used with another document);
 * - `ERR_QUOTA_EXCEEDED` (429: this principal's share of the idempotency store is taken by its own
 *   unfinished requests; retry after `Retry-After`);
 * - `ERR_INTERNAL` (500, opaque), `ERR_UNAVAILABLE` (503: the store failed, or the handler is closing),
 *   `ERR_CREATE_TIMEOUT` (503: `create` ran past `createTimeoutMs`; the key is free again).
 *
 * Exported from `messaging-events/server`.
 *
 * @example
 * ```ts
 * import type { EventsHandlerErrorCode } from "messaging-events/server";
 *
 * const retryable: EventsHandlerErrorCode[] = ["ERR_IDEMPOTENCY_KEY_IN_FLIGHT", "ERR_UNAVAILABLE"];
 * ```
 */
export type EventsHandlerErrorCode =
  | "ERR_NOT_FOUND"
  | "ERR_METHOD_NOT_ALLOWED"
  | "ERR_UNAUTHORIZED"
  | "ERR_UNSUPPORTED_MEDIA_TYPE"
  | "ERR_NOT_ACCEPTABLE"
  | "ERR_BODY_TOO_LARGE"
  | "ERR_BODY_NOT_JSON"
  | "ERR_BODY_TIMEOUT"
  | "ERR_BODY_ALREADY_READ"
  | "ERR_IDEMPOTENCY_KEY_INVALID"
  | "ERR_IDEMPOTENCY_KEY_MISMATCH"
  | "ERR_IDEMPOTENCY_KEY_IN_FLIGHT"
  | "ERR_IDEMPOTENCY_KEY_REUSED"
  | "ERR_QUOTA_EXCEEDED"
  | "ERR_INTERNAL"
  | "ERR_UNAVAILABLE"
  | "ERR_CREATE_TIMEOUT";

const titles: Record<EventsHandlerErrorCode, string> = {
  ERR_NOT_FOUND: "Not found",
  ERR_METHOD_NOT_ALLOWED: "Method not allowed",
  ERR_UNAUTHORIZED: "Unauthorized",
  ERR_UNSUPPORTED_MEDIA_TYPE: "Unsupported media type",
  ERR_NOT_ACCEPTABLE: "Not acceptable",
  ERR_BODY_TOO_LARGE: "Body too large",
  ERR_BODY_NOT_JSON: "Body is not JSON",
  ERR_BODY_TIMEOUT: "Body timed out",
  ERR_BODY_ALREADY_READ: "Body already read",
  ERR_IDEMPOTENCY_KEY_INVALID: "Invalid idempotency key",
  ERR_IDEMPOTENCY_KEY_MISMATCH: "Idempotency keys differ",
  ERR_IDEMPOTENCY_KEY_IN_FLIGHT: "Request in progress",
  ERR_IDEMPOTENCY_KEY_REUSED: "Idempotency key reused",
  ERR_QUOTA_EXCEEDED: "Too many requests in progress",
  ERR_INTERNAL: "Internal error",
  ERR_UNAVAILABLE: "Service unavailable",
  ERR_CREATE_TIMEOUT: "Create timed out",
};

/** One JSON:API error object of the handler. */
export function handlerError(
  status: number,
  code: EventsHandlerErrorCode,
  detail: string,
  pointer?: string,
): JsonApiError {
  return {
    status: String(status),
    code,
    title: titles[code],
    detail,
    ...(pointer === undefined ? {} : { source: { pointer } }),
  };
}

/** A JSON:API error document response. */
export function errorResponse(
  status: number,
  errors: readonly JsonApiError[],
  headers: Readonly<Record<string, string>> = {},
  meta?: Readonly<Record<string, unknown>>,
): Response {
  return new Response(JSON.stringify(meta === undefined ? { errors } : { errors, meta }), {
    status,
    headers: { "content-type": JSON_API_MEDIA_TYPE, ...headers },
  });
}

/** A response with one handler error. */
export function singleError(
  status: number,
  code: EventsHandlerErrorCode,
  detail: string,
  options: { pointer?: string; headers?: Readonly<Record<string, string>> } = {},
): Response {
  return errorResponse(status, [handlerError(status, code, detail, options.pointer)], options.headers);
}
