import { describe, expect, it } from "vitest";
import { createEventsClient } from "./createEventsClient.js";

/** The message of the TypeError that creating a client with these options throws. */
function refusal(options: Record<string, unknown>): string {
  let thrown: unknown;
  try {
    createEventsClient(options as never);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  return (thrown as TypeError).message;
}

describe("createEventsClient, against hostile options", () => {
  it("never echoes a base URL's query, which may carry a token, when refusing its user info", () => {
    const message = refusal({
      baseUrl: "https://user:pw@api.example.com/v1?token=SEKRET-TOKEN",
      authorization: "Bearer x",
    });
    expect(message).toMatch(/user name or password/);
    expect(message).not.toContain("SEKRET");
    expect(message).toContain("api.example.com/v1");
  });

  it("never echoes the query of a base URL it cannot parse", () => {
    const message = refusal({ baseUrl: "ht tp://api.example.com/?token=SEKRET-TOKEN", authorization: "x" });
    expect(message).toMatch(/absolute http: or https: URL/);
    expect(message).not.toContain("SEKRET");
  });
});

describe("createEventsClient, against a hostile or careless service", () => {
  const message = { type: "s.room.close", content: {} } as const;

  it("never echoes the query of a redirect's Location (the base URL's token, sent back)", async () => {
    const client = createEventsClient({
      baseUrl: "http://api.example.com/v1?api_key=SEKRET-TOKEN",
      authorization: "Bearer x",
      fetch: async (url) =>
        new Response(null, { status: 301, headers: { location: url.replace("http:", "https:") } }),
    });
    const failure = await client.createEvent(message).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_REDIRECT", status: 301 });
    const { location, message: text } = failure as { location: string; message: string };
    expect(location).toBe("https://api.example.com/v1/events?…");
    expect(text).not.toContain("SEKRET");
    expect(JSON.stringify(failure)).not.toContain("SEKRET");
  });
});

describe("createEventsClient, when the fetch error names the URL", () => {
  it("blots the base URL's query out of the message (node-fetch's errors quote the whole URL)", async () => {
    const client = createEventsClient({
      baseUrl: "http://a.io?k=SEKRET-TOKEN-42",
      authorization: "Bearer x",
      retry: { delaysMs: [] },
      fetch: async (url) => {
        throw new TypeError(`${url} failed, reason: connect ECONNREFUSED`);
      },
    });
    const failure = await client
      .createEvent({ type: "s.room.close", content: {} })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_RETRIES_EXHAUSTED" });
    const text = (failure as Error).message;
    expect(text).toMatch(/the last attempt failed/);
    expect(text).toContain("http://a.io/events?");
    expect(text).not.toMatch(/SEK/);
  });
});
