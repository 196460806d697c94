import type { NormalizedCors } from "./normalizeHandlerOptions.js";

/** What a preflight allows: the method and the request headers the library's client sends. */
const CORS_ALLOW_METHODS = "POST";
// The trace context a traced client sends (`traceparent`, `tracestate`) is allowed too.
const CORS_ALLOW_HEADERS =
  "content-type, accept, authorization, service-idempotency-key, traceparent, tracestate";
const CORS_EXPOSE_HEADERS = "location, retry-after, idempotent-replayed";

/**
 * CORS around the handler: a preflight from an allowed origin answers 204 with what may be sent;
 * every other answer to an allowed origin says so and exposes the headers a client reads. A request
 * from an origin not allowed (or without `Origin`) is answered as without `cors`.
 */
export async function withCors(
  cors: NormalizedCors,
  request: Request,
  path: string,
  next: (request: Request) => Promise<Response>,
): Promise<Response> {
  const origin = request.headers.get("origin");
  const allowed = origin !== null && cors.allows(origin);
  if (
    allowed &&
    request.method === "OPTIONS" &&
    request.headers.has("access-control-request-method") &&
    new URL(request.url).pathname === path
  ) {
    const headers = corsHeaders(cors, origin);
    headers.set("access-control-allow-methods", CORS_ALLOW_METHODS);
    headers.set("access-control-allow-headers", CORS_ALLOW_HEADERS);
    headers.set("access-control-max-age", cors.maxAgeHeader);
    return new Response(null, { status: 204, headers });
  }
  const response = await next(request);
  if (allowed) {
    corsHeaders(cors, origin).forEach((value, name) => {
      response.headers.set(name, value);
    });
    response.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
  } else if (!cors.anyOrigin || cors.allowCredentials) {
    // The answer depends on Origin: a shared cache must not serve one origin's answer to another.
    response.headers.append("vary", "origin");
  }
  return response;
}

function corsHeaders(cors: NormalizedCors, origin: string): Headers {
  const headers = new Headers();
  if (cors.anyOrigin && !cors.allowCredentials) {
    headers.set("access-control-allow-origin", "*");
  } else {
    headers.set("access-control-allow-origin", origin);
    headers.set("vary", "origin");
  }
  if (cors.allowCredentials) headers.set("access-control-allow-credentials", "true");
  return headers;
}
