import { quote } from "../internal/describe.js";
import { acceptsJsonApi, isJsonApiMediaType, JSON_API_MEDIA_TYPE } from "../jsonapi/mediaType.js";
import { safeParseEventDocument } from "../jsonapi/parseEventDocument.js";
import { toJsonApiErrors } from "../jsonapi/toJsonApiErrors.js";
import { CreateSignal } from "./CreateSignal.js";
import { createIdempotently } from "./createIdempotently.js";
import { errorResponse, singleError } from "./errorResponse.js";
import { eventOf } from "./eventOf.js";
import type { NormalizedHandlerOptions } from "./normalizeHandlerOptions.js";
import { RequestErrors } from "./RequestErrors.js";
import { readBodyWithLimit } from "./readBodyWithLimit.js";
import { readKey } from "./readKey.js";
import { createGivenUp, internalError } from "./retryLaterResponses.js";
import { type CreateOutcome, runCreateWithin } from "./runCreate.js";
import type { Shutdown } from "./Shutdown.js";
import { toResponse } from "./toResponse.js";

/**
 * The answer to one request, in the order a client can act on: the path and method, `authorize`,
 * the media types, the body (at most `maxBodyBytes`, within `bodyTimeoutMs`), the key, the document;
 * then `create`, once per key when the request has one.
 */
export async function handleEventsRequest(
  request: Request,
  settings: NormalizedHandlerOptions,
  shutdown: Shutdown,
  errors: RequestErrors = new RequestErrors(settings.onError, request),
): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname !== settings.path) {
    return singleError(404, "ERR_NOT_FOUND", `nothing is served at ${quote(url.pathname)}`);
  }
  errors.trace?.record({ route: settings.path });
  if (request.method !== "POST") {
    return singleError(
      405,
      "ERR_METHOD_NOT_ALLOWED",
      `${quote(request.method)} is not allowed here; send POST`,
      { headers: { allow: "POST" } },
    );
  }
  let principal: string | null;
  try {
    const authorized = settings.authorize(request);
    principal = isPromiseLike(authorized) ? await authorized : authorized;
  } catch (error) {
    errors.report("authorize", error, 500);
    return internalError();
  }
  if (typeof principal !== "string" || principal === "") {
    return singleError(401, "ERR_UNAUTHORIZED", "the request is not authorized", {
      headers: { "www-authenticate": settings.authenticationScheme },
    });
  }
  errors.principal = principal;
  const contentType = request.headers.get("content-type");
  if (!isJsonApiMediaType(contentType)) {
    return singleError(
      415,
      "ERR_UNSUPPORTED_MEDIA_TYPE",
      `the Content-Type must be ${JSON_API_MEDIA_TYPE}, with no parameters other than ext and profile, not ${
        contentType === null ? "absent" : quote(contentType)
      }`,
    );
  }
  const accept = request.headers.get("accept");
  if (!acceptsJsonApi(accept)) {
    return singleError(
      406,
      "ERR_NOT_ACCEPTABLE",
      `the Accept header must allow ${JSON_API_MEDIA_TYPE} without parameters other than ext and profile, not ${quote(String(accept))}`,
    );
  }
  const body = await readBodyWithLimit(request, settings.maxBodyBytes, settings.bodyTimeoutMs);
  if (!body.success) {
    if (body.reason === "too-large") {
      return singleError(
        413,
        "ERR_BODY_TOO_LARGE",
        `the body must be at most ${settings.maxBodyBytes} bytes`,
      );
    }
    return body.reason === "timeout"
      ? singleError(
          408,
          "ERR_BODY_TIMEOUT",
          `the body was not received in full within ${settings.bodyTimeoutMs} ms; send it again, at once and as long as its Content-Length says`,
        )
      : singleError(400, "ERR_BODY_NOT_JSON", "the body could not be read");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body.bytes));
  } catch {
    return singleError(400, "ERR_BODY_NOT_JSON", "the body is not JSON text (UTF-8)");
  }
  const keyed = readKey(request, parsed);
  if (!keyed.success) return keyed.response;
  const jsonApi = settings.jsonApi;
  const validated = safeParseEventDocument(parsed, jsonApi);
  if (!validated.success) {
    const { errors, meta } = toJsonApiErrors(validated.error, jsonApi);
    return errorResponse(422, errors, {}, meta);
  }
  const document = validated.data;
  const key = keyed.key;
  errors.idempotencyKey = key;
  errors.trace?.record({
    eventType: eventOf(document, settings.attributeNames).type,
    idempotencyKeySent: key !== undefined,
  });
  if (key === undefined) {
    const abort = new CreateSignal(shutdown);
    let created: CreateOutcome;
    try {
      created = await runCreateWithin(settings, shutdown, document, principal, undefined, abort, errors);
    } finally {
      abort.done();
    }
    if (created.success) return toResponse(created.response);
    return "why" in created ? createGivenUp(settings, created.why) : internalError();
  }
  return createIdempotently(settings, shutdown, parsed, document, principal, key, errors);
}

/** Whether `authorize` answered later rather than at once (only then is it awaited). */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
