/**
 * OpenTelemetry costs nothing to those who do not use it: `@opentelemetry/api` is an optional peer
 * dependency that only `messaging-events/opentelemetry` imports. Each other subpath, bundled whole
 * by esbuild for the browser from the built package, holds no OpenTelemetry code (the API's global
 * registry key, its package name) and none of the instrumentation's span or attribute names; the
 * instrumentation's own subpath, bundled the same way, holds both (so the markers are the right ones).
 */
import { describe, expect, it } from "vitest";
import { entryOf } from "../../scripts/sizes.js";
import { bundle } from "../support/bundle.js";

/** What OpenTelemetry's API and the library's instrumentation put in a bundle. */
const OPENTELEMETRY =
  /opentelemetry\.js\.api|@opentelemetry\/|messaging_events\.create_event|http\.request\.method/;

describe("OpenTelemetry stays out of the bundles that do not ask for it", () => {
  it.each([
    "messaging-events/events",
    "messaging-events/webhooks",
    "messaging-events/client",
    "messaging-events",
    "messaging-events/server",
    "messaging-events/dispatch",
  ])("%s, imported whole, holds no OpenTelemetry code", async (from) => {
    const { code } = await bundle(entryOf({ label: "", from, names: [] }));
    expect(code.length).toBeGreaterThan(1000);
    expect(code).not.toMatch(OPENTELEMETRY);
  });

  it("messaging-events/opentelemetry holds it: the markers above are the right ones", async () => {
    const { code } = await bundle(
      entryOf({ label: "", from: "messaging-events/opentelemetry", names: ["createOpenTelemetry"] }),
    );
    expect(code).toMatch(/opentelemetry\.js\.api/);
    expect(code).toContain("messaging_events.create_event");
    expect(code).toContain("http.request.method");
  });
});
