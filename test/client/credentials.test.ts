/**
 * Credentials never leak: a base URL with user info and header values the client cannot send
 * unchanged are refused before anything is sent, without echoing them; and whatever a service
 * answers, even one that echoes the Authorization header back, no message, property or cause of a
 * client error carries the credentials.
 */
import type { ServerResponse } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEventsClient, IdempotencyKeyError, isEventsClientError } from "../../src/index.js";
import { type RecordedRequest, useFakeService } from "../support/fakeService.js";

const fake = useFakeService();

const message = { type: "s.message.text" as const, content: { body: "Hi" } };

/** Every text an error shows: String, message, stack, JSON, and the same for its causes. */
function textsOf(error: unknown): string[] {
  const texts: string[] = [];
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

describe("credentials in options", () => {
  it("refuses a base URL with user info before sending anything, without echoing it", () => {
    const attempt = () =>
      createEventsClient({
        baseUrl: fake().url.replace("http://", "http://user:hunter2@"),
        credentials: "c",
      });
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(/must not carry a user name or password/);
    expect(attempt).not.toThrow(/hunter2|user:/);
    expect(fake().requests).toHaveLength(0);
  });

  it.each([
    ["Bearer hunter2\r\nX-Evil: 1"],
    ["Bearer hunter2\n"],
    ["Bearer hunter2\0"],
    ["Bearer\thunter2"],
    ["Bearer hunter2\x7f"],
  ])("refuses credentials %j at once, without echoing them", (credentials) => {
    const attempt = () => createEventsClient({ baseUrl: fake().url, credentials });
    expect(attempt).toThrow(TypeError);
    expect(attempt).not.toThrow(/hunter2|X-Evil/);
  });

  it.each([
    ["two keys joined by a proxy", "k1, k2"],
    ["a comma", "k1,k2"],
    ["a tab inside", "order\t42"],
    ["a DEL", "order\x7f42"],
    ["a Latin-1 letter", "ordér-42"],
    ["a C1 control", "order\x8542"],
    ["a line break", "order-42\r\nX-Evil: 1"],
    ["256 characters", "k".repeat(256)],
  ])(
    "refuses an idempotency key with %s before sending, without echoing it",
    async (_what, idempotencyKey) => {
      const client = createEventsClient({ baseUrl: fake().url, credentials: "Bearer t" });
      const failure = await client.createEvent(message, { idempotencyKey }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(IdempotencyKeyError);
      expect(failure).toMatchObject({ code: "ERR_INVALID_IDEMPOTENCY_KEY" });
      expect((failure as Error).message).not.toContain(idempotencyKey);
      expect(fake().requests).toHaveLength(0);
    },
  );
});

type Echo = (auth: string, token: string, request: RecordedRequest, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/vnd.api+json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
const sent = (request: RecordedRequest) => JSON.parse(request.body) as { data: Record<string, unknown> };

/** Services that echo the Authorization header (or its token) wherever an error could pick it up. */
const echoes: Record<string, Echo> = {
  "401 errors": (auth, token, _request, res) =>
    json(res, 401, {
      errors: [
        {
          status: "401",
          code: token,
          title: auth,
          detail: `bad credentials: ${auth}`,
          source: { header: auth },
        },
      ],
    }),
  "422 errors, token first": (_auth, token, _request, res) =>
    json(res, 422, { errors: [{ detail: token, source: { pointer: `/${token}` } }] }),
  "201 echoing it as the key": (auth, _token, request, res) =>
    json(res, 201, { data: { ...sent(request).data, id: "01J", meta: { "idempotency-key": auth } } }),
  "201 with it as the id": (auth, _token, request, res) =>
    json(res, 201, { data: { ...sent(request).data, id: `${auth} and more than 26 characters` } }),
  "201 with it as the resource type": (_auth, token, request, res) =>
    json(res, 201, { data: { ...sent(request).data, id: "01J", type: token } }),
  "201 that is not JSON": (auth, _token, _request, res) => json(res, 201, `oops ${auth}`),
  "307 towards it": (auth, token, _request, res) =>
    json(res, 307, "", {
      location: `http://u:${token}@127.0.0.1:9/${token}?auth=${encodeURIComponent(auth)}`,
    }),
  "503 with it in the body": (auth, _token, _request, res) => json(res, 503, { errors: [{ detail: auth }] }),
  "a dropped connection": (_auth, _token, _request, res) => res.socket?.destroy(),
};

describe("credentials in errors", () => {
  it("no client error ever shows the credentials, whatever the service echoes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Bearer", "Token", "Basic"),
        fc.stringMatching(/^[A-Za-z0-9._~-]{16,40}$/),
        fc.constantFrom(...Object.keys(echoes)),
        async (scheme, token, name) => {
          const auth = `${scheme} ${token}`;
          const echo = echoes[name]!;
          const handler = {
            kind: "handler" as const,
            handle: (request: RecordedRequest, res: ServerResponse) => echo(auth, token, request, res),
          };
          fake().script.length = 0;
          fake().script.push(handler, handler);
          const client = createEventsClient({
            baseUrl: fake().url,
            credentials: auth,
            retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5 },
          });
          const failure = await client.createEvent(message).catch((error: unknown) => error);
          expect(isEventsClientError(failure), name).toBe(true);
          expect(fake().requests.at(-1)?.headers.authorization).toBe(auth); // it was sent, and echoed
          for (const text of textsOf(failure)) {
            expect(text, name).not.toContain(token);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
