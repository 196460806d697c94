import { describe, expect, expectTypeOf, it } from "vitest";
import type { EventContent } from "../events/index.js";
import {
  parseWebhookPayload,
  safeParseWebhookPayload,
  type WebhookPayload,
  webhookEventTypes,
} from "./index.js";

const valid: Record<(typeof webhookEventTypes)[number], unknown> = {
  "s.room.create": { creatorId: "user-7" },
  "s.room.membership": { membership: "join", trigger: "Auto" },
  "s.message.text": { body: "Hello", annotations: { bold: [0, 5] } },
  "s.message.media": { mediaId: "m-1", label: "cat.jpg" },
  "s.message.edit": { body: "Hello!", editedType: "s.message.text" },
  "s.message.delete": { anything: ["no schema is published"] },
  "s.room.close": {},
};

const full = {
  type: "s.message.text",
  version: 2,
  content: { body: "Hello" },
  roomId: "room-42",
  senderId: "user-7",
  senderExternalId: "crm-7",
  recipients: [{ id: "user-9" }, { id: "user-10", externalId: "crm-10" }],
  referenceId: "01JD8X",
  livechatId: "sales",
  preconditions: { language: "en" },
};

describe("webhook payloads", () => {
  it("covers the seven webhook types", () => {
    expect([...webhookEventTypes]).toEqual([
      "s.room.create",
      "s.room.membership",
      "s.message.text",
      "s.message.media",
      "s.message.edit",
      "s.message.delete",
      "s.room.close",
    ]);
  });

  it.each(webhookEventTypes)("accepts a minimal %s payload", (type) => {
    expect(parseWebhookPayload({ type, version: 2, content: valid[type] })).toEqual({
      type,
      version: 2,
      content: valid[type],
    });
  });

  it("accepts every optional member and keeps unknown ones (forward compatibility)", () => {
    const withExtra = { ...full, deliveryId: "d-1", recipients: [{ id: "u", role: "agent" }] };
    expect(parseWebhookPayload(withExtra)).toEqual(withExtra);
  });

  it("accepts any JSON value as s.message.delete content", () => {
    for (const content of [null, 1, "x", [], {}]) {
      expect(safeParseWebhookPayload({ type: "s.message.delete", version: 2, content }).success).toBe(true);
    }
  });

  it.each([
    ["version 1", { ...full, version: 1 }, "invalid_value", "/version", "version must be 2, not 1"],
    [
      "version as a string",
      { ...full, version: "2" },
      "invalid_value",
      "/version",
      'version must be 2, not "2"',
    ],
    [
      "no version",
      { type: "s.room.close", content: {} },
      "required",
      "/version",
      "version is required: expected 2",
    ],
    ["not a webhook type", { ...full, type: "s.timer" }, "invalid_value", "/type", undefined],
    ["no type", { version: 2, content: {} }, "required", "/type", undefined],
    [
      "content of the wrong shape",
      { ...full, content: { body: 1 } },
      "invalid_type",
      "/content/body",
      "content.body must be a string, not a number",
    ],
    ["no content", { type: "s.room.close", version: 2 }, "required", "/content", undefined],
    [
      "media with both label and body",
      { type: "s.message.media", version: 2, content: { mediaId: "m", label: "l", body: "b" } },
      "exactly_one_of",
      "/content",
      undefined,
    ],
    [
      "a recipient without id",
      { ...full, recipients: [{ externalId: "x" }] },
      "required",
      "/recipients/0/id",
      "recipients[0].id is required: expected a string",
    ],
    ["roomId a number", { ...full, roomId: 42 }, "invalid_type", "/roomId", undefined],
    ["preconditions an array", { ...full, preconditions: [] }, "invalid_type", "/preconditions", undefined],
  ])("rejects %s", (_name, value, code, pointer, message) => {
    const result = safeParseWebhookPayload(value);
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("ERR_INVALID_WEBHOOK_PAYLOAD");
    const issue = result.error?.issues.find((candidate) => candidate.pointer === pointer);
    expect(issue?.code).toBe(code);
    if (message) expect(issue?.message).toBe(message);
    expect(() => parseWebhookPayload(value)).toThrow(/Invalid webhook payload/);
  });

  it("never throws: proxies with throwing traps, revoked proxies, throwing getters", () => {
    const trap = () => {
      throw new Error("trap");
    };
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const value of [
      new Proxy(
        {},
        { get: trap, getPrototypeOf: trap, ownKeys: trap, has: trap, getOwnPropertyDescriptor: trap },
      ),
      revoked,
      Object.defineProperty({ version: 2, content: {} }, "type", { enumerable: true, get: trap }),
      Object.defineProperty({ type: "s.room.close", version: 2 }, "content", { enumerable: true, get: trap }),
    ]) {
      const result = safeParseWebhookPayload(value);
      expect(result.success).toBe(false);
      expect(result.error?.code).toBe("ERR_INVALID_WEBHOOK_PAYLOAD");
    }
  });

  it("rejects what is not an object, without throwing", () => {
    for (const value of [null, "{}", 2, [], undefined]) {
      expect(safeParseWebhookPayload(value).error?.issues[0]?.message).toMatch(
        /^the webhook payload must be an object, not/,
      );
    }
  });

  it("types narrow on type", () => {
    const payload = {} as WebhookPayload;
    if (payload.type === "s.message.media")
      expectTypeOf(payload.content).toEqualTypeOf<EventContent<"s.message.media">>();
    if (payload.type === "s.room.create") expectTypeOf(payload.content.creatorId).toEqualTypeOf<string>();
    expectTypeOf(payload.version).toEqualTypeOf<2>();
    expectTypeOf(payload.roomId).toEqualTypeOf<string | undefined>();
  });
});

describe("cost and content are bounded like every other parser's", () => {
  it("200,000 bad recipients give a bounded error, not a stack overflow", () => {
    const result = safeParseWebhookPayload({
      type: "s.message.text",
      version: 2,
      content: { body: "x" },
      recipients: Array(200_000).fill(0),
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(100);
    expect(result.error?.issues[0]).toMatchObject({ pointer: "/recipients/0", code: "invalid_type" });
    expect(result.error?.omittedIssues).toBe(199_900);
  });

  it("a sparse recipients list longer than the node limit is refused before its entries are read", () => {
    const recipients: unknown[] = [];
    recipients.length = 2 ** 32 - 1;
    const result = safeParseWebhookPayload({ type: "s.room.close", version: 2, content: {}, recipients });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe("too_many_nodes");
  });

  it("takes ValidationLimits as its last argument, as the other parsers do", () => {
    const value = {
      type: "s.room.close",
      version: 2,
      content: {},
      recipients: [{ id: 1 }, { id: 2 }, { id: 3 }],
    };
    const result = safeParseWebhookPayload(value, { maxIssues: 1 });
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.omittedIssues).toBe(2);
    expect(() => parseWebhookPayload(value, { maxIssues: 1 })).toThrow(
      expect.objectContaining({ omittedIssues: 2 }),
    );
    const deep = { type: "s.room.close", version: 2, content: {}, extra: [[[["x"]]]] };
    expect(safeParseWebhookPayload(deep, { maxDepth: 3 }).error?.issues[0]?.code).toBe("too_deep");
    expect(safeParseWebhookPayload(deep).success).toBe(true);
  });

  const notJson: [string, unknown][] = [
    ["a BigInt", 1n],
    ["a function", () => 1],
    ["undefined", undefined],
    ["a Date", new Date(0)],
    ["NaN", Number.NaN],
    ["a Map", new Map()],
  ];
  it.each(notJson)("%s as an unknown top-level member is refused", (_name, extra) => {
    const result = safeParseWebhookPayload({ type: "s.room.close", version: 2, content: {}, extra });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ pointer: "/extra", code: "not_json" });
  });

  it.each(notJson)("%s as an unknown member of a recipient is refused", (_name, extra) => {
    const value = { type: "s.room.close", version: 2, content: {}, recipients: [{ id: "u-1", extra }] };
    const result = safeParseWebhookPayload(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ pointer: "/recipients/0/extra", code: "not_json" });
  });

  it("JSON values in unknown members are kept", () => {
    const value = {
      type: "s.room.close",
      version: 2,
      content: {},
      extra: { nested: [1, "two", null, true] },
      recipients: [{ id: "u-1", role: "agent" }],
    };
    expect(parseWebhookPayload(value)).toEqual(value);
  });
});
