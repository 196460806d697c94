import type { KeptApiError, KeptText } from "./InspectorRecord.js";

/** The request headers the inspector shows; `authorization` only as present, never its value. */
const SHOWN_HEADERS = [
  "content-type",
  "accept",
  "content-length",
  "service-idempotency-key",
  "origin",
  "user-agent",
] as const;

/** The value shown in place of an `Authorization` header. */
export const HIDDEN_AUTHORIZATION = "(hidden)";

/** A header value as kept: at most 200 characters. */
const short = (value: string): string => (value.length > 200 ? `${value.slice(0, 200)}…` : value);

/** The headers of a request worth showing, in a fixed order; an `Authorization` value is replaced. */
export function keptHeaders(headers: Headers): [string, string][] {
  const kept: [string, string][] = [];
  if (headers.has("authorization")) kept.push(["authorization", HIDDEN_AUTHORIZATION]);
  for (const name of SHOWN_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept.push([name, short(value)]);
  }
  return kept;
}

/** A JSON document's value, or `undefined` when the text is cut or not JSON. */
function parsed(kept: KeptText): unknown {
  if (kept.cut || kept.text === "") return undefined;
  try {
    return JSON.parse(kept.text) as unknown;
  } catch {
    return undefined;
  }
}

const text = (value: unknown, limit = 500): string =>
  typeof value === "string" ? (value.length > limit ? `${value.slice(0, limit)}…` : value) : "";

/** What a request and its answer say of the event: its type and, once created, its id. */
export function eventOf(request: KeptText, response: KeptText): { type?: string; id?: string } {
  type Resource = { data?: { id?: unknown; attributes?: { eventType?: unknown } } } | undefined;
  const answer = parsed(response) as Resource;
  const sent = parsed(request) as Resource;
  const type = answer?.data?.attributes?.eventType ?? sent?.data?.attributes?.eventType;
  const id = answer?.data?.id;
  return {
    ...(typeof type === "string" ? { type: text(type, 100) } : {}),
    ...(typeof id === "string" ? { id: text(id, 100) } : {}),
  };
}

/** The JSON:API errors of an answer (at most 50), each member as text. */
export function apiErrorsOf(response: KeptText): KeptApiError[] {
  const errors = (parsed(response) as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.slice(0, 50).map((error: unknown) => {
    const item = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
    const source = (typeof item.source === "object" && item.source !== null ? item.source : {}) as Record<
      string,
      unknown
    >;
    return {
      status: text(item.status, 10),
      code: text(item.code, 100),
      title: text(item.title),
      detail: text(item.detail),
      pointer: text(source.pointer),
    };
  });
}
