/**
 * Every status of the events handler as a table, run against the bare Fetch handler and through the
 * Node adapter on a real socket.
 */
import { documentFor, MEDIA_TYPE, TOKEN } from "./support.js";

export interface StatusCase {
  readonly name: string;
  readonly method?: string;
  readonly path?: string;
  /** Request headers; `createHeaders()` is not applied, each case says what it sends. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string | Uint8Array;
  readonly status: number;
  readonly code?: string;
  readonly pointer?: string;
  /** Response headers the case expects. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
}

const base: [string, string][] = [
  ["authorization", TOKEN],
  ["content-type", MEDIA_TYPE],
  ["accept", MEDIA_TYPE],
];
const valid = JSON.stringify(documentFor("hello"));
const withMeta = (key: unknown) => {
  const document = documentFor("hello") as { data: Record<string, unknown> };
  return JSON.stringify({ data: { ...document.data, meta: { "idempotency-key": key } } });
};

export const statusCases: readonly StatusCase[] = [
  { name: "a valid create without a key", headers: base, body: valid, status: 201 },
  {
    name: "a valid create with a key",
    headers: [...base, ["service-idempotency-key", "order-1"]],
    body: withMeta("order-1"),
    status: 201,
  },
  { name: "another path", path: "/other", headers: base, body: valid, status: 404, code: "ERR_NOT_FOUND" },
  {
    name: "GET on the events path",
    method: "GET",
    headers: base,
    status: 405,
    code: "ERR_METHOD_NOT_ALLOWED",
    responseHeaders: { allow: "POST" },
  },
  {
    name: "PUT on the events path",
    method: "PUT",
    headers: base,
    body: valid,
    status: 405,
    code: "ERR_METHOD_NOT_ALLOWED",
    responseHeaders: { allow: "POST" },
  },
  {
    name: "no credentials",
    headers: base.filter(([name]) => name !== "authorization"),
    body: valid,
    status: 401,
    code: "ERR_UNAUTHORIZED",
  },
  {
    name: "wrong credentials",
    headers: [...base.slice(1), ["authorization", "Bearer nope"]],
    body: valid,
    status: 401,
    code: "ERR_UNAUTHORIZED",
  },
  {
    name: "Content-Type application/json",
    headers: [base[0]!, ["content-type", "application/json"], base[2]!],
    body: valid,
    status: 415,
    code: "ERR_UNSUPPORTED_MEDIA_TYPE",
  },
  {
    name: "Content-Type with a charset parameter",
    headers: [base[0]!, ["content-type", `${MEDIA_TYPE}; charset=utf-8`], base[2]!],
    body: valid,
    status: 415,
    code: "ERR_UNSUPPORTED_MEDIA_TYPE",
  },
  {
    name: "Content-Type with a profile parameter",
    headers: [base[0]!, ["content-type", `${MEDIA_TYPE}; profile="https://example.com/p"`], base[2]!],
    body: valid,
    status: 201,
  },
  {
    name: "Accept that excludes JSON:API",
    headers: [...base.slice(0, 2), ["accept", "text/html"]],
    body: valid,
    status: 406,
    code: "ERR_NOT_ACCEPTABLE",
  },
  {
    name: "Accept with only a parameterised JSON:API",
    headers: [...base.slice(0, 2), ["accept", `${MEDIA_TYPE}; version=2`]],
    body: valid,
    status: 406,
    code: "ERR_NOT_ACCEPTABLE",
  },
  { name: "Accept */*", headers: [...base.slice(0, 2), ["accept", "*/*"]], body: valid, status: 201 },
  {
    name: "a body over maxBodyBytes (1000 in these tests)",
    headers: base,
    body: JSON.stringify({ padding: "x".repeat(2000) }),
    status: 413,
    code: "ERR_BODY_TOO_LARGE",
  },
  {
    name: "a body that is not JSON",
    headers: base,
    body: "{not json",
    status: 400,
    code: "ERR_BODY_NOT_JSON",
  },
  {
    name: "a body that is not UTF-8",
    headers: base,
    body: new Uint8Array([0x7b, 0xff, 0x7d]),
    status: 400,
    code: "ERR_BODY_NOT_JSON",
  },
  { name: "an empty body", headers: base, body: "", status: 400, code: "ERR_BODY_NOT_JSON" },
  {
    name: "a document of another resource type",
    headers: base,
    body: JSON.stringify({ data: { type: "rooms", attributes: {} } }),
    status: 422,
    pointer: "/data/type",
  },
  {
    name: "invalid content",
    headers: base,
    body: valid.replace('"body":"hello"', '"body":42'),
    status: 422,
    code: "invalid_type",
    pointer: "/data/attributes/content/body",
  },
  {
    name: "header and meta keys differ",
    headers: [...base, ["service-idempotency-key", "order-1"]],
    body: withMeta("order-2"),
    status: 400,
    code: "ERR_IDEMPOTENCY_KEY_MISMATCH",
    pointer: "/data/meta/idempotency-key",
  },
  {
    name: "a repeated key header",
    headers: [...base, ["service-idempotency-key", "order-1"], ["service-idempotency-key", "order-2"]],
    body: valid,
    status: 400,
    code: "ERR_IDEMPOTENCY_KEY_INVALID",
  },
  {
    name: "a repeated key header carrying the same key twice",
    headers: [...base, ["service-idempotency-key", "order-1"], ["service-idempotency-key", "order-1"]],
    body: withMeta("order-1"),
    status: 400,
  },
  {
    name: "a key with a comma in meta",
    headers: base,
    body: withMeta("a,b"),
    status: 400,
    code: "ERR_IDEMPOTENCY_KEY_INVALID",
    pointer: "/data/meta/idempotency-key",
  },
  {
    name: "a key of 256 characters",
    headers: [...base, ["service-idempotency-key", "k".repeat(256)]],
    body: valid,
    status: 400,
    code: "ERR_IDEMPOTENCY_KEY_INVALID",
  },
  {
    name: "a key that is not a string in meta",
    headers: base,
    body: withMeta(42),
    status: 400,
    code: "ERR_IDEMPOTENCY_KEY_INVALID",
  },
];
