/** Users of classic zod compose the library's zod/mini schemas into their own. */
import ajv2020Module from "ajv/dist/2020.js";
import ajvFormatsModule from "ajv-formats";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type EventContent,
  eventSchema,
  messageActionContent,
  messageMediaContent,
  messageTextContent,
  timerContent,
} from "../../src/events/index.js";

const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;

describe("composition with classic zod", () => {
  const chatMessage = z.object({
    id: z.string(),
    sentAt: z.iso.datetime(),
    content: messageTextContent,
  });

  it("validates through the composed schema, with the library's rules intact", () => {
    const ok = chatMessage.safeParse({
      id: "m1",
      sentAt: "2026-11-22T18:00:00Z",
      content: { body: "Hi", format: "😀".repeat(100) },
    });
    expect(ok.success).toBe(true);
    const bad = chatMessage.safeParse({
      id: "m1",
      sentAt: "2026-11-22T18:00:00Z",
      content: { body: "Hi", format: "😀".repeat(101) },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["content", "format"]);
  });

  it("infers the composed type", () => {
    expectTypeOf<z.infer<typeof chatMessage>["content"]>().toEqualTypeOf<EventContent<"s.message.text">>();
    const timers = z.array(timerContent);
    expectTypeOf<z.infer<typeof timers>>().toEqualTypeOf<EventContent<"s.timer">[]>();
  });

  it("keeps the media rule and the action union inside classic schemas", () => {
    const attachment = z.object({
      media: messageMediaContent,
      actions: z.array(messageActionContent).optional(),
    });
    expect(attachment.safeParse({ media: { mediaId: "m", label: "a", body: "b" } }).success).toBe(false);
    expect(attachment.safeParse({ media: { mediaId: "m", label: "a" } }).success).toBe(true);
    expect(
      attachment.safeParse({
        media: { mediaId: "m", body: "b" },
        actions: [{ type: "radio", body: "x", writeable: ["a"] }],
      }).success,
    ).toBe(false);
  });

  it("works with classic helpers: extend, optional, union", () => {
    const envelope = z.object({ event: eventSchema }).extend({ receivedAt: z.number() });
    expect(
      envelope.parse({ event: { type: "s.room.pin", content: { value: true } }, receivedAt: 1 }),
    ).toEqual({
      event: { type: "s.room.pin", content: { value: true } },
      receivedAt: 1,
    });
    const either = z.union([timerContent, z.literal("none")]);
    expect(either.safeParse("none").success).toBe(true);
    expect(either.safeParse({ status: "EXPIRED" }).success).toBe(true);
  });

  it("generates JSON Schema with the library's rules from classic z.toJSONSchema", () => {
    const schema = z.toJSONSchema(
      z.object({ text: messageTextContent, media: messageMediaContent }),
    ) as unknown as {
      properties: { text: { properties: { format: { maxLength: number } } }; media: { oneOf: unknown[] } };
    };
    expect(schema.properties.text.properties.format.maxLength).toBe(100);
    expect(schema.properties.media.oneOf).toEqual([
      { properties: { label: true }, required: ["label"] },
      { properties: { body: true }, required: ["body"] },
    ]);
  });

  it("generates JSON Schema that Ajv compiles in strict mode and that keeps the rules", () => {
    const attachment = z.object({
      media: messageMediaContent,
      actions: z.array(messageActionContent),
      timer: timerContent,
    });
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const validate = ajv.compile(z.toJSONSchema(attachment));
    const good = {
      media: { mediaId: "m", label: "a" },
      actions: [
        {
          type: "boolean",
          body: "Ok?",
          writeable: ["customer"],
          options: [
            { label: "No", value: "false" },
            { label: "Yes", value: "true" },
          ],
        },
      ],
      timer: { status: "EXPIRED" },
    };
    expect(attachment.safeParse(good).success).toBe(true);
    expect(validate(good)).toBe(true);
    for (const bad of [
      { ...good, media: { mediaId: "m", label: "a", body: "b" } },
      { ...good, media: { mediaId: "m" } },
      {
        ...good,
        actions: [
          {
            type: "boolean",
            body: "Ok?",
            writeable: ["customer"],
            options: [
              { label: "No", value: "true" },
              { label: "Yes", value: "true" },
            ],
          },
        ],
      },
    ]) {
      expect(attachment.safeParse(bad).success).toBe(false);
      expect(validate(bad)).toBe(false);
    }
  });
});
