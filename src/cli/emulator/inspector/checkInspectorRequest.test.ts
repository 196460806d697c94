import { describe, expect, it } from "vitest";
import { actionRefusal, crossSiteRefusal, isOwnHost } from "./checkInspectorRequest.js";

describe("isOwnHost", () => {
  it.each([
    ["127.0.0.1:4010", true],
    ["localhost:4010", true],
    ["LOCALHOST:4010", true],
    ["[::1]:4010", true],
    ["192.168.1.20:4010", true],
    ["127.0.0.1:4011", false],
    ["127.0.0.1", false],
    ["attacker.example:4010", false],
    ["127.0.0.1.nip.io:4010", false],
    ["user@127.0.0.1:4010", false],
    ["127.0.0.1:4010/x", false],
    ["", false],
  ])("%s", (host, own) => {
    expect(isOwnHost(host, 4010, "127.0.0.1")).toBe(own);
  });

  it("answers to the --host name it was given, and to port 80 without a port", () => {
    expect(isOwnHost("devbox:4010", 4010, "devbox")).toBe(true);
    expect(isOwnHost("127.0.0.1", 80, "127.0.0.1")).toBe(true);
    expect(isOwnHost(undefined, 4010, "127.0.0.1")).toBe(false);
  });
});

describe("actionRefusal", () => {
  const own = { host: "127.0.0.1:4010", "content-type": "application/json", "x-inspector-action": "1" };

  it("lets the page's own action through", () => {
    expect(actionRefusal({ ...own, origin: "http://127.0.0.1:4010", "sec-fetch-site": "same-origin" })).toBe(
      undefined,
    );
    expect(actionRefusal(own)).toBe(undefined); // curl: no browser headers
  });

  it("refuses an action without the header, with another body, or from another origin or site", () => {
    expect(actionRefusal({ ...own, "x-inspector-action": undefined })).toMatch(/header/);
    expect(actionRefusal({ ...own, "content-type": "text/plain" })).toMatch(/JSON/);
    expect(actionRefusal({ ...own, origin: "http://attacker.example" })).toMatch(/own page/);
    expect(actionRefusal({ ...own, "sec-fetch-site": "cross-site" })).toMatch(/own page/);
  });
});

describe("crossSiteRefusal", () => {
  it("lets the page and a typed address read, not another site", () => {
    expect(crossSiteRefusal({ "sec-fetch-site": "same-origin" })).toBe(undefined);
    expect(crossSiteRefusal({ "sec-fetch-site": "none" })).toBe(undefined);
    expect(crossSiteRefusal({})).toBe(undefined);
    expect(crossSiteRefusal({ "sec-fetch-site": "same-site" })).toBeDefined();
    expect(crossSiteRefusal({ "sec-fetch-site": "cross-site" })).toBeDefined();
  });
});
