/**
 * The runtime conformance suite: the same checks on every runtime the library claims (Node 20, 22
 * and 24, Bun, Deno, workerd, Vercel's edge-runtime, Chromium). Plain JavaScript, importing the
 * *built* package through its exports, so that what is tested is what users install.
 *
 * `runConformance({ serviceUrl })` resolves to `{ [check]: "pass" | "fail: …" }`; it never rejects.
 * `serviceUrl`, when given, is a loopback stand-in for the service (see test/runtimes/service.js);
 * `emulatorUrl`, given in the browser only, is the command line's emulator on another origin than the
 * page, reached through CORS.
 */

import * as root from "messaging-events";
import * as clientModule from "messaging-events/client";
import { createEventsClient } from "messaging-events/client";
import { createWebhookDispatcher, safeParseWebhookUrl } from "messaging-events/dispatch";
import * as eventsModule from "messaging-events/events";
import { eventTypes, parseEventContent, safeParseEventContent } from "messaging-events/events";
import * as idempotencyModule from "messaging-events/idempotency";
import { createIdempotencyKey, isValidIdempotencyKey } from "messaging-events/idempotency";
import * as jsonapiModule from "messaging-events/jsonapi";
import {
  createEventDocument,
  parseEventDocument,
  safeParseEventDocument,
  toJsonApiErrors,
} from "messaging-events/jsonapi";
import { createEventsHandler } from "messaging-events/server";
import * as webhooksModule from "messaging-events/webhooks";
import {
  createWebhookReceiver,
  createWebhookRequest,
  safeVerifyWebhookSignature,
  signWebhook,
  verifyWebhook,
  verifyWebhookRequest,
} from "messaging-events/webhooks";
import vectorFile from "../webhooks/vectors.json" with { type: "json" };
import cases from "./cases.json" with { type: "json" };

const assert = (condition, message) => {
  if (!condition) throw new Error(message);
};

const secretOf = (vector) =>
  vector.secret ?? Uint8Array.from(vector.secret_hex.match(/../g), (pair) => Number.parseInt(pair, 16));

const checks = {
  async "import every subpath"() {
    const subpaths = { clientModule, eventsModule, idempotencyModule, jsonapiModule, webhooksModule };
    for (const [name, namespace] of Object.entries(subpaths)) {
      assert(Object.keys(namespace).length > 0, `${name} is empty`);
      for (const [key, value] of Object.entries(namespace)) {
        // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the check is that every export is the same object.
        assert(root[key] === value, `${name}.${key} differs from the root export`);
      }
    }
  },

  async "content verdicts"() {
    assert(eventTypes.length === 32, "32 event types");
    for (const row of cases) {
      const result = safeParseEventContent(row.type, row.content);
      assert(
        result.success === row.valid,
        `${row.type} ${row.name}: expected ${row.valid ? "valid" : "invalid"}`,
      );
      if (!row.valid) {
        const found = result.error.issues.some(
          (issue) => issue.code === row.expect.code && issue.pointer === row.expect.pointer,
        );
        assert(found, `${row.type} ${row.name}: expected ${row.expect.code} at ${row.expect.pointer}`);
      }
    }
    assert(safeParseEventContent("s.nope", {}).error.code === "ERR_UNKNOWN_EVENT_TYPE", "unknown type code");
    assert(
      parseEventContent("s.message.text", { body: "😀".repeat(60), format: "😀".repeat(100) }).body.length ===
        120,
      "code points",
    );
  },

  async "webhook vectors (base64url, hex, base64, tamper)"() {
    for (const vector of vectorFile.vectors) {
      const secret = secretOf(vector);
      const plain = await signWebhook({ payload: vector.body, secret, timestamp: vector.timestamp });
      assert(plain.headers["service-signature"] === vector.base64url, `${vector.name}: base64url by default`);
      const hex = await signWebhook({
        payload: vector.body,
        secret,
        timestamp: vector.timestamp,
        encoding: "hex",
      });
      assert(hex.headers["service-signature"] === vector.hex, `${vector.name}: hex signature`);
      const b64 = await signWebhook({
        payload: vector.body,
        secret,
        timestamp: vector.timestamp,
        encoding: "base64",
      });
      assert(b64.headers["service-signature"] === vector.base64, `${vector.name}: base64 signature`);
      const now = Date.parse(vector.timestamp);
      for (const signature of [vector.base64url, vector.hex, vector.hex.toUpperCase(), vector.base64]) {
        const result = await safeVerifyWebhookSignature({
          body: new TextEncoder().encode(vector.body),
          headers: { "Service-Timestamp": vector.timestamp, "Service-Signature": signature },
          secret,
          now,
        });
        const expected = vector.body === "" ? "ERR_WEBHOOK_BODY_NOT_JSON" : undefined;
        assert(
          result.error?.code === expected,
          `${vector.name}: verify ${signature.length} chars gave ${result.error?.code}`,
        );
        if (result.success) assert(result.signature === vector.hex, `${vector.name}: normalised signature`);
      }
      const tampered = await safeVerifyWebhookSignature({
        body: `${vector.body} `,
        headers: { "service-timestamp": vector.timestamp, "service-signature": vector.hex },
        secret,
        now,
      });
      assert(tampered.error?.code === "ERR_WEBHOOK_SIGNATURE_MISMATCH", `${vector.name}: tamper accepted`);
    }
  },

  async "fetch Request helpers"() {
    const payload = { type: "s.message.text", version: 2, content: { body: "Grüße 👋" }, roomId: "room-42" };
    const request = await createWebhookRequest("https://receiver.example/hooks", {
      payload,
      secret: "s3cr3t",
    });
    const verified = await verifyWebhookRequest(request, { secret: "s3cr3t" });
    assert(verified.content.body === "Grüße 👋", "verifyWebhookRequest payload");
    const signed = await signWebhook({ payload, secret: "s3cr3t" });
    const typed = await verifyWebhook({
      ...signed,
      headers: new Headers(signed.headers),
      secret: "s3cr3t",
    });
    assert(typed.type === "s.message.text" && typed.roomId === "room-42", "verifyWebhook");
  },

  async "webhook receiver: handled once, retried after a failure, one status table"() {
    const runs = [];
    let failures = 1;
    const receiver = createWebhookReceiver({
      secret: "s3cr3t",
      on: {
        "s.message.text": async (payload, context) => {
          runs.push(`${context.deliveryId}:${payload.content.body}`);
          if (failures-- > 0) throw new Error("a database blip");
        },
      },
    });
    const send = async (id, payload = { type: "s.message.text", version: 2, content: { body: "hi" } }) => {
      const request = await createWebhookRequest("https://receiver.example/hooks", {
        payload,
        secret: "s3cr3t",
      });
      if (id) request.headers.set("service-webhook-id", id);
      return receiver.fetch(request);
    };
    try {
      const first = await send("d-1");
      assert(first.status === 500, `a failing handler is 500, not ${first.status}`);
      assert((await first.json()).code === "ERR_WEBHOOK_HANDLER_FAILED", "handler failure code");
      assert((await send("d-1")).status === 204, "the retry is handled");
      assert((await send("d-1")).status === 204, "a later retry is acknowledged");
      assert(runs.join() === "d-1:hi,d-1:hi", `ran ${runs.join()}`);
      const invalid = await send("d-2", { type: "s.message.text", version: 2, content: {} });
      assert(invalid.status === 422, `an invalid payload is 422, not ${invalid.status}`);
      const forged = await receiver.fetch(
        new Request("https://receiver.example/hooks", {
          method: "POST",
          headers: { "service-timestamp": new Date().toISOString(), "service-signature": "ab".repeat(64) },
          body: "{}",
        }),
      );
      assert(forged.status === 401, `a forged webhook is 401, not ${forged.status}`);
      assert((await send(undefined)).status === 204, "a webhook without a delivery id is handled");
    } finally {
      await receiver.close();
    }
  },

  async "JSON:API documents and errors"() {
    const document = createEventDocument({
      type: "s.room.pin",
      content: { value: true },
      idempotencyKey: "order-42",
    });
    const parsed = parseEventDocument(JSON.parse(JSON.stringify(document)));
    assert(parsed.data.attributes.content.value === true, "round trip");
    assert(parsed.data.attributes.eventType === "s.room.pin", "event type attribute");
    const failure = safeParseEventDocument({
      data: { type: "events", attributes: { eventType: "s.form", content: { formId: "" } } },
    });
    const errors = toJsonApiErrors(failure.error).errors;
    assert(
      errors[0].status === "422" && errors[0].source.pointer === "/data/attributes/content/formId",
      "error document",
    );
    assert(isValidIdempotencyKey(createIdempotencyKey()), "idempotency key");
    assert(!isValidIdempotencyKey("k1, k2"), "a joined header is no key");
  },

  async "hostile input"() {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    for (const value of [proxy, trap]) {
      assert(safeParseEventContent("s.delete", value).success === false, "proxy content");
      assert(safeParseEventDocument(value).success === false, "proxy document");
      assert(toJsonApiErrors(value).errors[0].status === "500", "proxy error");
    }
    const flood = safeParseEventContent("s.message.action", {
      type: "text",
      body: "x",
      writeable: Array(2e5).fill(0),
    });
    assert(flood.error.issues.length === 100 && flood.error.omittedIssues === 199_900, "issues capped");
    assert(JSON.stringify(toJsonApiErrors(flood.error)).length <= 65_536, "error document bounded");
    const sparse = [];
    sparse.length = 2 ** 32 - 1;
    assert(safeParseEventContent("s.delete", sparse).error.issues[0].code === "too_many_nodes", "node limit");
  },

  async "server: idempotent POST /events with the memory store"() {
    let creates = 0;
    const handler = createEventsHandler({
      authorize: (request) => request.headers.get("authorization"),
      create: () => ({ id: `01JD8X5QK3M2${String(++creates).padStart(14, "0")}` }),
    });
    const send = () =>
      handler(
        new Request("https://service.example/events", {
          method: "POST",
          headers: {
            authorization: "Bearer t",
            "content-type": "application/vnd.api+json",
            "service-idempotency-key": "runtime-key",
          },
          body: JSON.stringify({
            data: { type: "events", attributes: { eventType: "s.room.close", content: {} } },
          }),
        }),
      );
    const first = await send();
    const firstBody = await first.text();
    const again = await send();
    assert(first.status === 201 && again.status === 201, `statuses ${first.status} ${again.status}`);
    assert(again.headers.get("idempotent-replayed") === "true", "replay header");
    assert((await again.text()) === firstBody && creates === 1, "one event, replayed byte for byte");
    await handler.close();
  },

  async "client never follows redirects"() {
    let calls = 0;
    let redirect;
    const client = createEventsClient({
      baseUrl: "https://service.example/v1",
      authorization: "Bearer t",
      fetch: async (_url, init) => {
        calls++;
        redirect = init.redirect;
        return new Response(null, { status: 307, headers: { location: "https://elsewhere.example/" } });
      },
    });
    let code;
    try {
      await client.createEvent({ type: "s.room.close", content: {} });
    } catch (error) {
      code = error.code;
    }
    assert(code === "ERR_EVENTS_REDIRECT" && calls === 1 && redirect === "manual", "redirect refused");
  },

  async "client (in-process fetch)"() {
    let calls = 0;
    const client = createEventsClient({
      baseUrl: "https://service.example/v1",
      authorization: "Bearer t",
      retry: { delaysMs: [1, 2], maxRetryAfterMs: 10 },
      fetch: async (_url, init) => {
        calls++;
        if (calls === 1) return new Response("", { status: 503 });
        const sent = JSON.parse(String(init.body));
        const data = { ...sent.data, id: "01JD8X5QK3M2" };
        return new Response(JSON.stringify({ data }), {
          status: 201,
          headers: { "content-type": "application/vnd.api+json" },
        });
      },
    });
    const { data: event, replayed } = await client.createEvent({
      type: "s.message.text",
      content: { body: "Hi" },
    });
    assert(
      calls === 2 && event.id === "01JD8X5QK3M2" && replayed === false,
      "retried once and returned the resource",
    );
  },
  "dispatcher refuses internal destinations": async () => {
    for (const url of ["http://2130706433/", "http://[::ffff:169.254.169.254]/", "http://localhost/"]) {
      assert(!safeParseWebhookUrl(url).success, `${url} refused at registration`);
    }
    const sent = [];
    const attempts = [];
    const dispatcher = createWebhookDispatcher({
      endpoints: [
        { id: "metadata", url: "https://metadata.test/hooks", secret: "s3cr3t" },
        { id: "public", url: "https://public.test/hooks", secret: "s3cr3t" },
      ],
      destinations: {
        resolve: async (host) => (host === "metadata.test" ? ["169.254.169.254"] : ["203.0.114.7"]),
      },
      fetch: async (url) => {
        sent.push(url);
        return new Response(null, { status: 204 });
      },
      retry: { delaysMs: [] },
      onAttempt: (attempt) => attempts.push(attempt),
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    for (let wait = 0; attempts.length < 2 && wait < 200; wait++) await new Promise((r) => setTimeout(r, 10));
    await dispatcher.close();
    assert(
      sent.length === 1 && sent[0] === "https://public.test/hooks",
      "only the public destination was sent to",
    );
    assert(
      attempts.some(
        (attempt) => attempt.endpointId === "metadata" && /^destination refused/.test(attempt.reason),
      ),
      "the resolved metadata address refused before any request",
    );
  },
};

/** Runs every check; a check that needs a loopback service is skipped when none is given. */
export async function runConformance({ serviceUrl, emulatorUrl } = {}) {
  const all = { ...checks };
  if (serviceUrl) {
    all["client (loopback service)"] = async () => {
      const client = createEventsClient({
        baseUrl: serviceUrl,
        authorization: "Bearer t",
        retry: { delaysMs: [1, 2, 4], maxRetryAfterMs: 50 },
      });
      const { data: event } = await client.createEvent(
        { type: "s.room.create", content: { creatorId: "user-7" } },
        { idempotencyKey: "runtime-check" },
      );
      assert(event.attributes.content.creatorId === "user-7", "created");
      assert(event.meta["idempotency-key"] === "runtime-check", "echo");
    };
  }
  if (emulatorUrl) {
    all["client → emulator on another origin (CORS)"] = async () => {
      const client = createEventsClient({ baseUrl: emulatorUrl, authorization: "Bearer dev" });
      const event = { type: "s.message.text", content: { body: "from a page" } };
      // A key of this page's own: the emulator outlives the page, and each page load creates anew.
      const idempotencyKey = `cors-${crypto.randomUUID()}`;
      const first = await client.createEvent(event, { idempotencyKey });
      const again = await client.createEvent(event, { idempotencyKey });
      assert(first.data.id.length === 26 && first.replayed === false, "created by the emulator");
      assert(
        again.data.id === first.data.id && again.replayed === true,
        "replayed, Idempotent-Replayed exposed",
      );
    };
  }
  const results = {};
  for (const [name, check] of Object.entries(all)) {
    try {
      await check();
      results[name] = "pass";
    } catch (error) {
      results[name] = `fail: ${error?.message ?? error}`;
    }
  }
  return results;
}
