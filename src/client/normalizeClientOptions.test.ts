import { describe, expect, it } from "vitest";
import { type EventsClientOptions, normalizeClientOptions } from "./normalizeClientOptions.js";

const base = { baseUrl: "https://api.example.com/v1", authorization: "Bearer token-1234" };

/** The TypeError an option gives; its message never shows `secret`. */
function refusal(options: unknown, secret?: string): string {
  let thrown: unknown;
  try {
    normalizeClientOptions(options as EventsClientOptions);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  const message = (thrown as TypeError).message;
  expect(message.length).toBeLessThan(400);
  expect(message).not.toMatch(/[\n\r]/);
  if (secret !== undefined) expect(message).not.toContain(secret);
  return message;
}

describe("normalizeClientOptions", () => {
  it("applies every default in one place", () => {
    const options = normalizeClientOptions(base);
    expect(options).toMatchObject({
      endpoint: "https://api.example.com/v1/events",
      authorization: "Bearer token-1234",
      retry: { delaysMs: [100, 200, 400], jitter: 0.5, maxRetryAfterMs: 5_000 },
      timeoutMs: 10_000,
      maxResponseBytes: 1_048_576,
    });
    expect(typeof options.fetch).toBe("function");
  });

  it("keeps what the user gave", () => {
    const fetch = async () => new Response();
    const options = normalizeClientOptions({
      ...base,
      fetch,
      retry: { delaysMs: [], jitter: 0, maxRetryAfterMs: Number.POSITIVE_INFINITY },
      timeoutMs: Number.POSITIVE_INFINITY,
      maxResponseBytes: 0,
    });
    expect(options).toMatchObject({
      fetch,
      retry: { delaysMs: [], jitter: 0, maxRetryAfterMs: Number.POSITIVE_INFINITY },
      timeoutMs: Number.POSITIVE_INFINITY,
      maxResponseBytes: 0,
    });
  });

  it.each([
    ["https://api.example.com", "https://api.example.com/events"],
    ["https://api.example.com/v1/", "https://api.example.com/v1/events"],
    ["http://127.0.0.1:8080/api?tenant=7#part", "http://127.0.0.1:8080/api/events?tenant=7"],
    [new URL("https://api.example.com/v2"), "https://api.example.com/v2/events"],
  ])("the endpoint of %s is %s", (baseUrl, endpoint) => {
    expect(normalizeClientOptions({ ...base, baseUrl }).endpoint).toBe(endpoint);
  });

  it.each([
    ["http://user:hunter2@127.0.0.1:18081/api", "hunter2"],
    ["https://:hunter2@api.example.com/", "hunter2"],
    ["https://hunter2@api.example.com/", "hunter2"],
    ["https://us%65r:hunter2@api.example.com/", "hunter2"],
    [new URL("https://user:hunter2@api.example.com/"), "hunter2"],
  ])("refuses %s, a base URL with user info, without echoing it", (baseUrl, secret) => {
    const message = refusal({ ...base, baseUrl }, secret);
    expect(message).toMatch(/user name or password/);
    expect(message).not.toMatch(/user:|us%65r|@/);
  });

  it.each([
    ["file:///etc/passwd", '"file:"'],
    ["data:text/plain,hunter2", '"data:"'],
    ["javascript:alert(1)", '"javascript:"'],
    ["ftp://example.com/", '"ftp:"'],
    ["ws://example.com/", '"ws:"'],
    ["user:hunter2@example.com/api", '"user:"'],
  ])("refuses %s: only http: and https:", (baseUrl, shown) => {
    const message = refusal({ ...base, baseUrl }, "hunter2");
    expect(message).toMatch(/http: or https:/);
    expect(message).toContain(shown);
  });

  it("a base URL that is not a URL is quoted, cut and escaped, or not shown when it could hold a password", () => {
    expect(refusal({ ...base, baseUrl: "not a url" })).toContain('not "not a url"');
    const long = refusal({ ...base, baseUrl: `line\nbreak${"x".repeat(1_000_000)}` });
    expect(long).toContain('"line\\nbreak');
    expect(long).toContain("…");
    expect(refusal({ ...base, baseUrl: "http://user:hun ter2@host/" }, "ter2")).toMatch(
      /user name or password/,
    );
    expect(refusal({ ...base, baseUrl: "http://user:p/ss@host/" }, "p/ss")).toMatch(/not shown/);
  });

  it.each([42, null, undefined, {}, ["https://api.example.com"]])("refuses a base URL of %j", (baseUrl) => {
    expect(refusal({ ...base, baseUrl })).toMatch(/baseUrl must be a string or a URL/);
  });

  it.each([
    ["CR LF", "Bearer x\r\nX-Evil: 1"],
    ["a trailing LF alone", "Bearer hunter2\n"],
    ["LF", "Bearer hunter2\nx"],
    ["CR", "Bearer hunter2\rx"],
    ["NUL", "Bearer hunter2\0"],
    ["tab", "Bearer\thunter2"],
    ["another C0", "Bearer hunter2\x1b[2J"],
    ["DEL", "Bearer hunter2\x7f"],
    ["a C1 control", "Bearer hunter2\x85"],
    ["a leading space", " Bearer hunter2"],
    ["a trailing space", "Bearer hunter2 "],
    ["a character beyond Latin-1", "Bearer hunter2ключ"],
    ["nothing", ""],
  ])("refuses an authorization with %s, without echoing it", (_what, authorization) => {
    const message = refusal({ ...base, authorization }, "hunter2");
    expect(message).toMatch(/authorization must be a header value/);
    expect(message).not.toContain("X-Evil");
  });

  it.each(["Bearer abc", "Basic dXNlcjpwYXNz", "Token a=b, c=d", "Bearer café"])(
    "accepts the authorization %j",
    (authorization) => {
      expect(normalizeClientOptions({ ...base, authorization }).authorization).toBe(authorization);
    },
  );

  it("keeps a function as it is, without calling it: it is called per attempt", () => {
    let calls = 0;
    const authorization = () => `Bearer token-${++calls}`;
    expect(normalizeClientOptions({ ...base, authorization }).authorization).toBe(authorization);
    const refresh = async () => "Bearer refreshed";
    expect(normalizeClientOptions({ ...base, authorization: refresh }).authorization).toBe(refresh);
    expect(calls).toBe(0);
  });

  it.each([42, 12345678, null, undefined, { toString: () => "Bearer x" }, Promise.resolve("Bearer x")])(
    "refuses an authorization that is neither a string nor a function (%j) without showing it",
    (authorization) => {
      const message = refusal({ ...base, authorization }, "12345678");
      expect(message).toMatch(
        /authorization must be the Authorization header value, a string, or a function giving it, not /,
      );
    },
  );

  it("takes no option named credentials: it is authorization", () => {
    const { authorization: _, ...rest } = base;
    expect(refusal({ ...rest, credentials: "Bearer token-1234" })).toMatch(
      /authorization must be .*, not undefined$/,
    );
  });

  it.each([
    [{ retry: { delaysMs: [100, -1] } }, /^createEventsClient: retry\.delaysMs must be .*: item 1 is -1$/],
    [{ retry: { delaysMs: "100,200" } }, /retry\.delaysMs must be a list .*, not "100,200"$/],
    [{ retry: { jitter: 1 } }, /retry\.jitter must be a number from 0 to below 1/],
    [{ retry: { maxRetryAfterMs: Number.NaN } }, /retry\.maxRetryAfterMs must be .*, not NaN$/],
    [{ retry: { retries: 3 } }, /retry has no member "retries": it takes delaysMs/],
    [{ retry: 5 }, /retry must be an object/],
    [{ timeoutMs: Number.NaN }, /timeoutMs must be a number >= 0/],
    [{ timeoutMs: -1 }, /timeoutMs/],
    [{ maxResponseBytes: 1.5 }, /maxResponseBytes must be a whole number >= 0/],
    [{ maxResponseBytes: -1 }, /maxResponseBytes/],
    [{ maxResponseBytes: Number.POSITIVE_INFINITY }, /maxResponseBytes/],
    [{ fetch: "fetch" }, /fetch must be a function/],
  ])("refuses %j", (extra, pattern) => {
    expect(refusal({ ...base, ...extra })).toMatch(pattern);
  });

  it.each([null, undefined, "https://api.example.com", 42])("refuses options of %j", (options) => {
    expect(refusal(options)).toMatch(/options must be an object/);
  });
});
