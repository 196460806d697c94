import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expectTypeOf, it } from "vitest";
import type {
  EventContent,
  EventContentInput,
  EventType,
  EventValidationIssue,
  MessagingEvent,
} from "../events/index.js";
import type { WebhookPayload } from "../webhooks/index.js";
import type * as standard from "./index.js";
import {
  type ContentStandardSchema,
  eventSchema,
  messageTextContent,
  type roomMembershipContent,
  type timerContent,
  webhookPayloadSchema,
} from "./index.js";

describe("types of messaging-events/standard, read through @standard-schema/spec", () => {
  it("InferOutput of a content object is the type's content, InferInput its input", () => {
    expectTypeOf<StandardSchemaV1.InferOutput<typeof messageTextContent>>().toEqualTypeOf<
      EventContent<"s.message.text">
    >();
    expectTypeOf<StandardSchemaV1.InferInput<typeof messageTextContent>>().toEqualTypeOf<
      EventContentInput<"s.message.text">
    >();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof timerContent>>().toEqualTypeOf<
      { status: "RUNNING"; expires: string } | { status: "CANCELLED" | "EXPIRED" }
    >();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof roomMembershipContent>>().toEqualTypeOf<
      EventContent<"s.room.membership">
    >();
  });

  it("every type's object infers that type's content", () => {
    type Outputs = { [T in EventType]: StandardSchemaV1.InferOutput<ContentStandardSchema<T>> };
    type Contents = { [T in EventType]: EventContent<T> };
    expectTypeOf<Outputs>().toEqualTypeOf<Contents>();
  });

  it("each export is a Standard Schema and a Standard JSON Schema", () => {
    expectTypeOf(messageTextContent).toExtend<
      StandardSchemaV1<EventContentInput<"s.message.text">, EventContent<"s.message.text">>
    >();
    expectTypeOf(messageTextContent).toExtend<
      StandardJSONSchemaV1<unknown, EventContent<"s.message.text">>
    >();
    expectTypeOf(eventSchema).toExtend<StandardSchemaV1<MessagingEvent, MessagingEvent>>();
    expectTypeOf(eventSchema).toExtend<StandardJSONSchemaV1<MessagingEvent, MessagingEvent>>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof eventSchema>>().toEqualTypeOf<MessagingEvent>();
    expectTypeOf(webhookPayloadSchema).toExtend<StandardSchemaV1<WebhookPayload, WebhookPayload>>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof webhookPayloadSchema>>().toEqualTypeOf<WebhookPayload>();
    expectTypeOf(webhookPayloadSchema).toExtend<StandardJSONSchemaV1<WebhookPayload, WebhookPayload>>();
    type Exports = (typeof standard)[keyof typeof standard];
    expectTypeOf<Exports>().toExtend<StandardSchemaV1>();
    expectTypeOf<Exports>().toExtend<StandardJSONSchemaV1>();
  });

  it("validate is synchronous and its issues are the library's", () => {
    const result = messageTextContent["~standard"].validate({});
    expectTypeOf(result).not.toExtend<Promise<unknown>>();
    if (result.issues === undefined)
      expectTypeOf(result.value).toEqualTypeOf<EventContent<"s.message.text">>();
    else expectTypeOf(result.issues).toEqualTypeOf<readonly EventValidationIssue[]>();
    expectTypeOf(messageTextContent["~standard"].vendor).toEqualTypeOf<"messaging-events">();
  });
});
