/**
 * A service may echo the Authorization value escaped: PHP's json_encode writes "/" as "\/", other
 * encoders write characters as \uXXXX, a Location header percent-encodes it. Whatever the escaping
 * and wherever the echo, and whether the `authorization` option is a string or a function (one
 * that refreshes included), no client error shows it; and what an error keeps of the service's
 * strings cannot forge a log line.
 */
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createEventsClient,
  EventsApiError,
  type EventsResponseError,
  isEventsClientError,
} from "../../src/index.js";
import { type RecordedRequest, useFakeService } from "../support/fakeService.js";
import { authorizationForms, authorizationIn } from "./authorizationForms.js";

const fake = useFakeService();

const message = { type: "s.message.text" as const, content: { body: "Hi" } };

/** Every text an error shows: String, message, stack, inspect, JSON, every own property, and the same for its causes. */
function textsOf(error: unknown): string[] {
  const texts: string[] = [inspect(error, { depth: 10 })];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    texts.push(String(current), JSON.stringify(current) ?? "");
    if (current instanceof Error) {
      texts.push(current.message, current.stack ?? "");
      for (const name of Object.getOwnPropertyNames(current)) {
        if (name !== "cause")
          texts.push(JSON.stringify((current as unknown as Record<string, unknown>)[name]) ?? "");
      }
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return texts;
}

type Escaping = "plain" | "solidus" | "some-unicode" | "all-unicode" | "solidus-and-unicode";

/** A string as a JSON encoder with that escaping writes it, without the quotes. */
function escapeString(text: string, escaping: Escaping, mask: readonly boolean[]): string {
  return [...text]
    .map((char, index) => {
      const unicode =
        escaping === "all-unicode" ||
        ((escaping === "some-unicode" || escaping === "solidus-and-unicode") && mask[index % mask.length]);
      if (unicode) {
        return [...char].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
      }
      if (char === "/" && (escaping === "solidus" || escaping === "solidus-and-unicode")) return "\\/";
      return JSON.stringify(char).slice(1, -1);
    })
    .join("");
}

/** The value as JSON text, every string and member name written with that escaping. */
function writeJson(value: unknown, write: (text: string) => string): string {
  if (typeof value === "string") return `"${write(value)}"`;
  if (Array.isArray(value)) return `[${value.map((item) => writeJson(item, write)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const members = Object.entries(value).map(([name, item]) => `"${write(name)}":${writeJson(item, write)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A string percent-encoded as a Location header may carry it: some characters, or all that need it. */
function percentEncode(text: string, mask: readonly boolean[]): string {
  return [...text]
    .map((char, index) =>
      mask[index % mask.length] || !/[A-Za-z0-9._~-]/.test(char) ? encodeURIComponent(char) : char,
    )
    .join("");
}

type Answer = { status: number; body?: unknown; location?: (encode: (text: string) => string) => string };
type Site = (auth: string, token: string, sent: Record<string, unknown>) => Answer;

const created = (sent: Record<string, unknown>, changes: Record<string, unknown>, key: unknown) => ({
  data: { ...sent, id: "01JD8X5QK3M2", meta: { "idempotency-key": key }, ...changes },
});

/** Every place a service could echo the credential back. */
const sites: Record<string, Site> = {
  "errors[].detail": (auth) => ({
    status: 401,
    body: { errors: [{ status: "401", detail: `${auth} rejected` }] },
  }),
  "errors[].title": (auth) => ({ status: 401, body: { errors: [{ title: auth }] } }),
  "errors[].code": (_auth, token) => ({ status: 403, body: { errors: [{ code: token }] } }),
  "errors[].id": (auth) => ({ status: 400, body: { errors: [{ id: auth }] } }),
  "errors[].status": (_auth, token) => ({ status: 400, body: { errors: [{ status: token }] } }),
  "errors[].source": (auth, token) => ({
    status: 422,
    body: { errors: [{ source: { pointer: `/${token}`, parameter: token, header: auth } }] },
  }),
  "a later error object": (auth) => ({
    status: 422,
    body: { errors: [{ detail: "fine" }, "junk", { detail: `x ${auth}` }] },
  }),
  "the echoed key": (auth, _token, sent) => ({ status: 201, body: created(sent, {}, auth) }),
  "the echoed key, after a prefix": (_auth, token, sent) => ({
    status: 201,
    body: created(sent, {}, `${"k".repeat(30)}${token}`),
  }),
  "the id": (auth, _token, sent) => ({ status: 201, body: created(sent, { id: `${auth} is no id` }, "x") }),
  "the resource type": (_auth, token, sent) => ({ status: 201, body: created(sent, { type: token }, "x") }),
  "the event type": (auth, _token, sent) => ({
    status: 201,
    body: created(sent, { attributes: { ...(sent.attributes as object), eventType: auth } }, "x"),
  }),
  "a member name in the content": (_auth, token, sent) => ({
    status: 201,
    body: created(sent, { attributes: { ...(sent.attributes as object), content: { [token]: 1 } } }, "x"),
  }),
  "a content value": (auth, _token, sent) => ({
    status: 201,
    body: created(
      sent,
      { attributes: { ...(sent.attributes as object), content: { body: 7, x: auth } } },
      "x",
    ),
  }),
  "the Location path and query": (auth, token) => ({
    status: 307,
    location: (encode) => `http://127.0.0.1:9/${encode(token)}?auth=${encode(auth)}`,
  }),
  "the Location user info and fragment": (_auth, token) => ({
    status: 308,
    location: (encode) => `http://u:${encode(token)}@127.0.0.1:9/x#${encode(token)}`,
  }),
};

describe("an authorization the service echoes escaped", () => {
  it("never shows in a client error, whatever the escaping, the echo and the form of the option", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Bearer", "Token", "Basic"),
        fc.stringMatching(/^[A-Za-z0-9/+=._~"\\-]{16,40}$/),
        fc.constantFrom(...Object.keys(sites)),
        fc.constantFrom<Escaping>("plain", "solidus", "some-unicode", "all-unicode", "solidus-and-unicode"),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(...authorizationForms),
        async (scheme, token, site, escaping, mask, form) => {
          const { authorization } = authorizationIn(form, scheme, token);
          fake().script.length = 0;
          // A refreshing function gives another value on the retry after a dropped connection.
          if (form === "refreshing function") fake().script.push({ kind: "drop" });
          fake().script.push({
            kind: "handler",
            handle: (request: RecordedRequest, res) => {
              const sent = (JSON.parse(request.body) as { data: Record<string, unknown> }).data;
              const auth = String(request.headers.authorization);
              const answer = sites[site]!(auth, auth.slice(scheme.length + 1), sent);
              const headers: Record<string, string> = { "content-type": "application/vnd.api+json" };
              if (answer.location) headers.location = answer.location((text) => percentEncode(text, mask));
              res.writeHead(answer.status, headers);
              res.end(
                answer.body === undefined
                  ? ""
                  : writeJson(answer.body, (text) => escapeString(text, escaping, mask)),
              );
            },
          });
          const client = createEventsClient({
            baseUrl: fake().url,
            authorization,
            retry: { delaysMs: form === "refreshing function" ? [1] : [], maxRetryAfterMs: 5 },
          });
          const failure = await client.createEvent(message).catch((error: unknown) => error);
          expect(isEventsClientError(failure), site).toBe(true);
          expect(fake().requests.at(-1)?.headers.authorization).toBe(
            form === "refreshing function" ? `${scheme} ${token}~2` : `${scheme} ${token}`,
          );
          for (const text of textsOf(failure)) {
            const lower = text.toLowerCase();
            expect(lower, `${site}, ${escaping}, ${form}`).not.toContain(token.toLowerCase());
            // What JSON and inspect make of the token must not show it either.
            expect(text, `${site}, ${escaping}, ${form}`).not.toContain(JSON.stringify(token).slice(1, -1));
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("a PHP-style 401 echoing the refused token with a forged log line keeps neither", async () => {
    const auth = "Bearer sk_live/AbCdEf+GhIjKlMn0123456789";
    fake().script.push({
      kind: "handler",
      handle: (_request, res) => {
        const detail = `${auth} rejected\n\x1b[31mFORGED LOG LINE\u2028\u202e`;
        res.writeHead(401, { "content-type": "application/vnd.api+json" });
        res.end(`{"errors":[{"status":"401","detail":${JSON.stringify(detail).replaceAll("/", "\\/")}}]}`);
      },
    });
    const client = createEventsClient({ baseUrl: fake().url, authorization: auth, retry: { delaysMs: [] } });
    const failure = await client.createEvent(message).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EventsApiError);
    const { errors, detail, message: said } = failure as EventsApiError;
    expect(errors[0]?.detail).toBe("[REDACTED] rejected\\n\\u001b[31mFORGED LOG LINE\\u2028\\u202e");
    expect(detail).toBe(errors[0]?.detail);
    expect(said).toBe(
      'the service answered 401: "[REDACTED] rejected\\n\\u001b[31mFORGED LOG LINE\\u2028\\u202e"',
    );
  });

  it("an echoed key with control characters cannot forge a line of the error", async () => {
    fake().script.push({
      kind: "handler",
      handle: (request, res) => {
        const sent = (JSON.parse(request.body) as { data: Record<string, unknown> }).data;
        res.writeHead(201, { "content-type": "application/vnd.api+json" });
        res.end(JSON.stringify(created(sent, {}, `x\n\x1b[2J\u2028${"y".repeat(5_000)}`)));
      },
    });
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: "Bearer t",
      retry: { delaysMs: [] },
    });
    const failure = await client.createEvent(message).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_BAD_RESPONSE" });
    const { message: said, issues } = failure as EventsResponseError;
    for (const text of [said, ...issues.map((issue) => issue.message)]) {
      expect(text).not.toMatch(/[\n\u2028]/);
      expect(text).not.toContain(String.fromCharCode(0x1b));
      expect(text.length).toBeLessThan(400);
    }
  });
});
