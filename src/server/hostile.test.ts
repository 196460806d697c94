/**
 * The server kit against hostile requests and risky configurations: what a page on any origin, a
 * caller that sends nothing valid, or a mistaken option can make it do.
 */
import { describe, expect, it } from "vitest";
import { createEventsHandler } from "./index.js";

const required = { authorize: () => "tenant", create: async () => ({ id: "event-1" }) };

describe("cors", () => {
  it('refuses origins ["*"] with allowCredentials, which would let every site send credentialed requests and read the answers', () => {
    expect(() =>
      createEventsHandler({ ...required, cors: { origins: ["*"], allowCredentials: true } }),
    ).toThrow(TypeError);
    expect(() =>
      createEventsHandler({
        ...required,
        cors: { origins: ["https://app.example.com", "*"], allowCredentials: true },
      }),
    ).toThrow(/allowCredentials/);
  });

  it('still answers "*" without credentials, and echoes a listed origin with them', async () => {
    const any = createEventsHandler({ ...required, cors: { origins: ["*"] } });
    const listed = createEventsHandler({
      ...required,
      cors: { origins: ["https://app.example.com"], allowCredentials: true },
    });
    const preflight = (origin: string) =>
      new Request("http://127.0.0.1/events", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      });
    const fromAny = await any(preflight("https://evil.example"));
    expect(fromAny.headers.get("access-control-allow-origin")).toBe("*");
    expect(fromAny.headers.get("access-control-allow-credentials")).toBeNull();
    const fromListed = await listed(preflight("https://app.example.com"));
    expect(fromListed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(fromListed.headers.get("access-control-allow-credentials")).toBe("true");
    const fromEvil = await listed(preflight("https://evil.example"));
    expect(fromEvil.headers.get("access-control-allow-origin")).toBeNull();
    await Promise.all([any.close(), listed.close()]);
  });
});
