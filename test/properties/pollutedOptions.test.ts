/**
 * A polluted `Object.prototype` (another package's bug, a merged request body) is no option: the
 * server's handler, the client and the dispatcher read only the options set on the object itself.
 */
import { afterEach, describe, expect, it } from "vitest";
import { normalizeClientOptions } from "../../src/client/normalizeClientOptions.js";
import { normalizeDispatcherOptions } from "../../src/dispatch/normalizeDispatcherOptions.js";
import { normalizeHandlerOptions } from "../../src/server/normalizeHandlerOptions.js";

const polluted = Object.prototype as Record<string, unknown>;
const planted: string[] = [];
const plant = (values: Record<string, unknown>) => {
  for (const [name, value] of Object.entries(values)) {
    polluted[name] = value;
    planted.push(name);
  }
};

afterEach(() => {
  for (const name of planted.splice(0)) delete polluted[name];
});

describe("options inherited from a polluted Object.prototype", () => {
  it("choose neither the handler's path nor its limits", () => {
    plant({ path: "/elsewhere", maxBodyBytes: 1e12, bodyTimeoutMs: 1e12 });
    const settings = normalizeHandlerOptions({ authorize: () => "tenant", create: () => ({ id: "1" }) });
    expect(settings.path).toBe("/events");
    expect(settings.maxBodyBytes).toBeLessThan(1e12);
    expect(settings.bodyTimeoutMs).toBeLessThan(1e12);
  });

  it("give the client no fetch and no time-out of theirs", () => {
    const stolen = async () => new Response(null, { status: 204 });
    plant({ fetch: stolen, timeoutMs: 1 });
    const settings = normalizeClientOptions({ baseUrl: "https://api.example", authorization: "Bearer t" });
    expect(settings.fetch).not.toBe(stolen);
    expect(settings.timeoutMs).not.toBe(1);
  });

  it("do not switch the dispatcher's delivery off", () => {
    plant({ deliver: false });
    const settings = normalizeDispatcherOptions({
      endpoints: [{ id: "crm", url: "https://crm.example/hooks", secret: "whsec_crm_secret_1234" }],
    });
    expect(settings.deliver).toBe(true);
  });
});
