/**
 * The client never follows a redirect: a loopback service answering 3xx towards a second loopback
 * service must leave the second one untouched (no document, no key, no credentials), and the
 * create fails at once with EventsRedirectError.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEventsClient, EventsRedirectError, isEventsClientError } from "../../src/index.js";
import { type FakeService, startFakeService } from "../support/fakeService.js";

let service: FakeService;
let elsewhere: FakeService;
beforeAll(async () => {
  [service, elsewhere] = await Promise.all([startFakeService(), startFakeService()]);
});
afterAll(async () => {
  await Promise.all([service.close(), elsewhere.close()]);
});
afterEach(() => {
  service.reset();
  elsewhere.reset();
});

const client = () =>
  createEventsClient({
    baseUrl: service.url,
    authorization: "Bearer test-token",
    retry: { delaysMs: [1, 2, 4], maxRetryAfterMs: 50 },
  });

const message = { type: "s.message.text" as const, content: { body: "Hi" } };

describe("redirects", () => {
  it.each([301, 302, 303, 307, 308])(
    "a %i to another server is an EventsRedirectError naming where it pointed; nothing reaches it",
    async (status) => {
      const target = new URL(elsewhere.url);
      target.username = "mallory";
      target.password = "s3cret";
      service.script.push({ kind: "status", status, headers: { location: `${target.href}/events` } });
      const failure = await client()
        .createEvent(message)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(EventsRedirectError);
      expect(isEventsClientError(failure)).toBe(true);
      const location = `${elsewhere.url}/events`;
      expect(failure).toMatchObject({ code: "ERR_EVENTS_REDIRECT", status, location });
      expect((failure as Error).message).toContain(`redirecting to "${location}"`);
      expect(JSON.stringify(failure) + String(failure)).not.toMatch(/mallory|s3cret/);
      expect(service.requests).toHaveLength(1); // never retried
      expect(elsewhere.requests).toHaveLength(0); // never followed
      expect(elsewhere.events.size).toBe(0);
    },
  );

  it("a 304 is a redirect error too, not a 4xx", async () => {
    service.script.push({ kind: "status", status: 304 });
    const failure = await client()
      .createEvent(message)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_REDIRECT", status: 304, location: undefined });
    expect(service.requests).toHaveLength(1);
  });

  it("a relative Location is resolved against the endpoint; a malformed one is left out", async () => {
    service.script.push({ kind: "status", status: 307, headers: { location: "../moved?x=1" } });
    await expect(client().createEvent(message)).rejects.toMatchObject({
      location: `${new URL(service.url).origin}/moved?…`,
    });
    service.script.push({ kind: "status", status: 308, headers: { location: "http://[bad" } });
    await expect(client().createEvent(message)).rejects.toMatchObject({ status: 308, location: undefined });
  });

  it("a browser's opaque redirect (status 0, headers hidden) is a redirect error; fetch is asked not to follow", async () => {
    const asked: RequestInit[] = [];
    const browserLike = createEventsClient({
      baseUrl: "https://api.example.com",
      authorization: "Bearer t",
      fetch: async (_url, init) => {
        asked.push(init);
        // What a browser's fetch gives for a redirect under redirect: "manual".
        const response = new Response(null, { status: 200 });
        Object.defineProperties(response, {
          type: { value: "opaqueredirect" },
          status: { value: 0 },
          ok: { value: false },
        });
        return response;
      },
    });
    const failure = await browserLike.createEvent(message).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "ERR_EVENTS_REDIRECT", status: 0, location: undefined });
    expect((failure as Error).message).toMatch(/the runtime hides where it points/);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.redirect).toBe("manual");
  });
});
