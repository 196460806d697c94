import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { methodAttributes, requestAttributes, serverRequestAttributes } from "./httpAttributes.js";

describe("requestAttributes", () => {
  it("gives what the method and the URL give, however often and in whatever order they come", () => {
    const method = fc.oneof(fc.constantFrom("GET", "POST", "PUT", "DELETE"), fc.string({ maxLength: 40 }));
    const url = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ maxLength: 300 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(method, url), { minLength: 1, maxLength: 20 }), (requests) => {
        for (const [m, u] of [...requests, ...requests.reverse()]) {
          expect(requestAttributes(m, u)).toEqual({ ...methodAttributes(m), ...serverRequestAttributes(u) });
        }
      }),
    );
  });

  it("never records the query or the fragment of a URL", () => {
    const attributes = requestAttributes("POST", "https://api.example/events?token=secret#frag");
    expect(JSON.stringify(attributes)).not.toMatch(/secret|frag/);
    expect(attributes).toMatchObject({
      "url.path": "/events",
      "server.address": "api.example",
      "server.port": 443,
    });
  });
});
