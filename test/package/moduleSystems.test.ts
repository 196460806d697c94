/** The built package works from ESM `import` and CommonJS `require`, through its exports, on this Node. */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A script that loads every subpath with `load` and reports what a user would check first. */
const script = (load: (specifier: string) => string) => `
const events = ${load("messaging-events/events")};
const all = ${load("messaging-events")};
const webhooks = ${load("messaging-events/webhooks")};
const jsonapi = ${load("messaging-events/jsonapi")};
const idempotency = ${load("messaging-events/idempotency")};
const client = ${load("messaging-events/client")};
const server = ${load("messaging-events/server")};
const serverRedis = ${load("messaging-events/server/redis")};
// The server subpaths are not in the root (it stays the isomorphic API): they only load and work.
if (typeof server.createEventsHandler !== "function" || "createEventsHandler" in all) throw new Error("server");
if (typeof serverRedis.createRedisIdempotencyStore !== "function") throw new Error("server/redis");
const handler = server.createEventsHandler({ authorize: () => "tenant", create: () => ({ id: "01JD8X5QK3M2" }) });
const created = await handler(new Request("http://x/events", {
  method: "POST",
  headers: { "content-type": "application/vnd.api+json", "service-idempotency-key": "k1" },
  body: JSON.stringify({ data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } }),
}));
if (created.status !== 201) throw new Error("server answered " + created.status);
await handler.close();
for (const [name, sub] of Object.entries({ webhooks, jsonapi, idempotency, client })) {
  for (const [key, value] of Object.entries(sub)) if (all[key] !== value) throw new Error(name + "." + key + " differs from the root export");
}
if (jsonapi.createEventDocument({ type: "s.room.close", content: {} }).data.type !== "events") throw new Error("jsonapi");
if (!idempotency.isValidIdempotencyKey(idempotency.createIdempotencyKey())) throw new Error("idempotency");
if (typeof client.createEventsClient({ baseUrl: "http://x", authorization: "c" }).createEvent !== "function") throw new Error("client");
const signed = await webhooks.signWebhook({ payload: { a: 1 }, secret: "s" });
if ((await webhooks.verifyWebhookSignature({ ...signed, secret: "s" })).payload.a !== 1) throw new Error("webhooks");
const ok = events.safeParseEventContent("s.timer", { status: "RUNNING", expires: "2026-11-22T18:00:00Z" });
const bad = all.safeParseEventContent("s.form", { formId: "" });
console.log(JSON.stringify([events.eventTypes.length, ok.success, bad.error.code, bad.error.issues[0].pointer,
  bad.error instanceof events.EventValidationError, events.parseEventContent === all.parseEventContent]));
`;

describe("module systems", () => {
  it.each([
    ["ESM import", "module", (specifier: string) => `await import(${JSON.stringify(specifier)})`],
    // CommonJS has no top-level await: the script runs in an async function.
    ["CommonJS require", "commonjs", (specifier: string) => `require(${JSON.stringify(specifier)})`],
  ])("%s of every subpath", (_name, inputType, load) => {
    const source = inputType === "commonjs" ? `(async () => {${script(load)}})();` : script(load);
    const output = execFileSync(process.execPath, [`--input-type=${inputType}`, "-e", source], {
      cwd: root,
      encoding: "utf8",
    });
    // Every subpath hands out the same classes and functions.
    expect(JSON.parse(output)).toEqual([
      32,
      true,
      "ERR_INVALID_EVENT_CONTENT",
      "/content/formId",
      true,
      true,
    ]);
  });
});
