/**
 * The `authorization` option, a string or a function called before every attempt, never leaks: a
 * base URL with user info and header values the client cannot send unchanged are refused before
 * anything is sent, without echoing them; a function that throws or gives something unsendable
 * fails the create with a coded error that does not show it; and whatever a service answers, even
 * one that echoes the Authorization header back, no message, property or cause of a client error
 * carries any value the option had.
 */
import type { ServerResponse } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createEventsClient,
  EventsAuthorizationError,
  IdempotencyKeyError,
  isEventsClientError,
} from "../../src/index.js";
import { type RecordedRequest, useFakeService } from "../support/fakeService.js";
import { authorizationForms, authorizationIn } from "./authorizationForms.js";

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

describe("authorization in options", () => {
  it("refuses a base URL with user info before sending anything, without echoing it", () => {
    const attempt = () =>
      createEventsClient({
        baseUrl: fake().url.replace("http://", "http://user:hunter2@"),
        authorization: "c",
      });
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(/must not carry a user name or password \(put them in authorization\)/);
    expect(attempt).not.toThrow(/hunter2|user:/);
    expect(fake().requests).toHaveLength(0);
  });

  it.each([
    ["Bearer hunter2\r\nX-Evil: 1"],
    ["Bearer hunter2\n"],
    ["Bearer hunter2\0"],
    ["Bearer\thunter2"],
    ["Bearer hunter2\x7f"],
  ])("refuses an authorization string %j at once, without echoing it", (authorization) => {
    const attempt = () => createEventsClient({ baseUrl: fake().url, authorization });
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
      const client = createEventsClient({ baseUrl: fake().url, authorization: "Bearer t" });
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
          detail: `bad authorization: ${auth}`,
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

describe("authorization in errors", () => {
  it("no client error ever shows any value the option had, whatever the service echoes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Bearer", "Token", "Basic"),
        fc.stringMatching(/^[A-Za-z0-9._~-]{16,40}$/),
        fc.constantFrom(...Object.keys(echoes)),
        fc.constantFrom(...authorizationForms),
        async (scheme, token, name, form) => {
          const { authorization, sent } = authorizationIn(form, scheme, token);
          const echo = echoes[name]!;
          const handler = {
            kind: "handler" as const,
            handle: (request: RecordedRequest, res: ServerResponse) => {
              // Each attempt echoes what it was sent, which changes when the function refreshes.
              const auth = String(request.headers.authorization);
              echo(auth, auth.slice(scheme.length + 1), request, res);
            },
          };
          fake().script.length = 0;
          fake().requests.length = 0;
          fake().script.push(handler, handler);
          const client = createEventsClient({
            baseUrl: fake().url,
            authorization,
            retry: { delaysMs: [1], maxRetryAfterMs: 5 },
          });
          const failure = await client.createEvent(message).catch((error: unknown) => error);
          expect(isEventsClientError(failure), name).toBe(true);
          const received = fake().requests.map((request) => request.headers.authorization);
          if (form !== "string") expect(received).toEqual(sent); // one call per attempt
          expect(received[0]).toBe(`${scheme} ${token}`); // it was sent, and echoed
          for (const text of textsOf(failure)) {
            expect(text, `${name}, ${form}`).not.toContain(token);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("authorization as a function", () => {
  it("is called before every attempt, retries included, and each attempt sends what it gave", async () => {
    fake().script.push({ kind: "status", status: 503 }, { kind: "drop" });
    let calls = 0;
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: async () => `Bearer token-${++calls}`,
      retry: { delaysMs: [1, 2, 4], maxRetryAfterMs: 5 },
    });
    const { data } = await client.createEvent(message);
    expect(calls).toBe(3);
    expect(fake().requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer token-1",
      "Bearer token-2",
      "Bearer token-3",
    ]);
    expect(data.attributes.content.body).toBe("Hi");
    await client.createEvent(message);
    expect(fake().requests.at(-1)?.headers.authorization).toBe("Bearer token-4");
  });

  it("a sync function works the same", async () => {
    const client = createEventsClient({ baseUrl: fake().url, authorization: () => "Token sync-value" });
    await client.createEvent(message);
    expect(fake().requests[0]?.headers.authorization).toBe("Token sync-value");
  });

  const refused = (thrown: unknown) => {
    expect(thrown).toBeInstanceOf(EventsAuthorizationError);
    expect(isEventsClientError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: "ERR_EVENTS_AUTHORIZATION", name: "EventsAuthorizationError" });
    return thrown as EventsAuthorizationError;
  };

  it.each([
    [
      "throws",
      () => {
        throw new Error("token endpoint unreachable");
      },
    ],
    [
      "rejects",
      async () => {
        throw new Error("token endpoint unreachable");
      },
    ],
  ])(
    "that %s fails the create before sending, with the error as cause, and is not retried",
    async (_how, fn) => {
      let calls = 0;
      const client = createEventsClient({
        baseUrl: fake().url,
        authorization: () => {
          calls++;
          return fn();
        },
        retry: { delaysMs: [1, 2, 4], maxRetryAfterMs: 5 },
      });
      const error = refused(
        await client.createEvent(message, { idempotencyKey: "k-1" }).catch((e: unknown) => e),
      );
      expect(error.message).toBe(
        "the authorization function threw (its error is the cause); attempt 1 was not sent",
      );
      expect(error.cause).toEqual(new Error("token endpoint unreachable"));
      expect(error).toMatchObject({ attempts: 0, idempotencyKey: "k-1" });
      expect(calls).toBe(1);
      expect(fake().requests).toHaveLength(0);
    },
  );

  it.each([
    ["a number", 12345678, /not a number/],
    ["undefined", undefined, /not undefined/],
    ["null", null, /not null/],
    ["an object that prints as the token", { toString: () => "Bearer hunter2-secret" }, /not an object/],
    ["a Headers", new Headers({ authorization: "Bearer hunter2-secret" }), /not a Headers/],
  ])("that gives %s fails the create without showing it", async (_what, value, said) => {
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: async () => value as never,
    });
    const error = refused(await client.createEvent(message).catch((e: unknown) => e));
    expect(error.message).toMatch(
      /^the authorization function must give the Authorization header value, a string \(or a promise of one\), not /,
    );
    expect(error.message).toMatch(said);
    for (const text of textsOf(error)) expect(text).not.toMatch(/hunter2|12345678/);
    expect(fake().requests).toHaveLength(0);
  });

  it.each([
    ["CR LF", "Bearer hunter2\r\nX-Evil: 1"],
    ["a trailing LF, as a token file has", "Bearer hunter2\n"],
    ["NUL", "Bearer hunter2\0"],
    ["a trailing space", "Bearer hunter2 "],
    ["a character beyond Latin-1", "Bearer hunter2ключ"],
    ["nothing", ""],
  ])("that gives a value with %s fails the create without showing it", async (_what, value) => {
    const client = createEventsClient({ baseUrl: fake().url, authorization: () => value });
    const error = refused(await client.createEvent(message).catch((e: unknown) => e));
    expect(error.message).toMatch(/^the authorization function gave a value that cannot be sent as a header/);
    expect(error.message).toMatch(/\(the value is not shown\); attempt 1 was not sent$/);
    for (const text of textsOf(error)) expect(text).not.toMatch(/hunter2|X-Evil/);
    expect(fake().requests).toHaveLength(0);
  });

  it("failing on a retry says how many requests were sent before, with the key to retry with", async () => {
    fake().script.push({ kind: "status", status: 503 });
    let calls = 0;
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: () => (++calls === 1 ? "Bearer first-token-1234" : "Bearer bad\nvalue"),
      retry: { delaysMs: [1, 2, 4], maxRetryAfterMs: 5 },
    });
    const error = refused(await client.createEvent(message).catch((e: unknown) => e));
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(/attempt 2 was not sent$/);
    expect(fake().requests).toHaveLength(1);
    expect(error.idempotencyKey).toBe(fake().requests[0]?.headers["service-idempotency-key"]);
  });

  it("the caller's signal stops a function that never settles", async () => {
    const client = createEventsClient({
      baseUrl: fake().url,
      authorization: () => new Promise<string>(() => undefined),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user navigated away")), 20);
    await expect(client.createEvent(message, { signal: controller.signal })).rejects.toThrow(
      "user navigated away",
    );
    expect(fake().requests).toHaveLength(0);
  });
});
