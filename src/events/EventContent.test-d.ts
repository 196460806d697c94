import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type { IssueCode } from "../internal/issue.js";
import {
  type EventContent,
  type EventContentInput,
  type EventScope,
  type EventType,
  type EventValidationIssueCode,
  type eventContentSchemas,
  type eventSchema,
  eventScope,
  eventTypes,
  type MessagingEvent,
  type messageActionContent,
  parseEvent,
  parseEventContent,
  type SafeParseResult,
  safeParseEventContent,
} from "./index.js";
import type { JsonObject, JsonValue } from "./JsonValue.js";

describe("types inferred from the schemas", () => {
  it("EventContent<'s.timer'> is the two-variant union", () => {
    expectTypeOf<EventContent<"s.timer">>().toEqualTypeOf<
      { status: "RUNNING"; expires: string } | { status: "CANCELLED" | "EXPIRED" }
    >();
  });

  it("enums are literal unions and optional members are optional", () => {
    expectTypeOf<EventContent<"s.presence">>().toEqualTypeOf<{
      status: "OFFLINE" | "INVISIBLE" | "INACTIVE" | "AWAY" | "ONLINE";
    }>();
    expectTypeOf<EventContent<"s.form">>().toEqualTypeOf<{ formId: string; inline?: boolean | undefined }>();
    expectTypeOf<EventContent<"s.support.delegate">>().toEqualTypeOf<{
      type: "Agent" | "CRM";
      agentId?: string | null | undefined;
    }>();
    expectTypeOf<EventContent<"s.receipt">>().toEqualTypeOf<Record<string, never>>();
  });

  it("unconstrained types are JSON values; annotations are JSON objects", () => {
    expectTypeOf<EventContent<"s.delete">>().toEqualTypeOf<JsonValue>();
    expectTypeOf<EventContent<"s.message.text">["annotations"]>().toEqualTypeOf<JsonObject | undefined>();
    expectTypeOf<EventContent<"s.message.text">["body"]>().toEqualTypeOf<string>();
    // Additional properties are allowed, as unknown.
    expectTypeOf<EventContent<"s.message.text">>().toHaveProperty("anything").toEqualTypeOf<unknown>();
  });

  it("discriminated unions narrow on their tag", () => {
    const membership = {} as EventContent<"s.room.membership">;
    if (membership.membership === "invite") expectTypeOf(membership.inviteeId).toEqualTypeOf<string>();
    if (membership.membership === "join")
      expectTypeOf(membership.sticky).toEqualTypeOf<boolean | undefined>();
    const action = {} as z.infer<typeof messageActionContent>;
    if (action.type === "select") expectTypeOf(action.multiple).toEqualTypeOf<boolean>();
    if (action.type === "date") expectTypeOf(action.center).toEqualTypeOf<string | null | undefined>();
    if (action.type === "boolean") expectTypeOf(action.options).toHaveProperty("length").toEqualTypeOf<2>();
    const invocation = {} as EventContent<"s.message.action.invocation">;
    expectTypeOf(invocation.value).toEqualTypeOf<string | number | string[]>();
  });

  it("input types equal output types (no transforms)", () => {
    expectTypeOf<EventContentInput<"s.timer">>().toEqualTypeOf<EventContent<"s.timer">>();
    expectTypeOf<EventContentInput<"s.message.action">>().toEqualTypeOf<EventContent<"s.message.action">>();
  });

  it("MessagingEvent is a discriminated union that narrows content", () => {
    const event = {} as MessagingEvent;
    if (event.type === "s.form") expectTypeOf(event.content.formId).toEqualTypeOf<string>();
    expectTypeOf<MessagingEvent<"s.pin" extends EventType ? never : "s.room.pin">>().toEqualTypeOf<{
      type: "s.room.pin";
      content: { value: boolean };
    }>();
    expectTypeOf<z.output<typeof eventSchema>>().toEqualTypeOf<MessagingEvent>();
  });

  it("the functions return the types of their event type", () => {
    expectTypeOf(parseEventContent("s.timer", {})).toEqualTypeOf<EventContent<"s.timer">>();
    expectTypeOf(parseEventContent("s.mention" as string, {})).toEqualTypeOf<EventContent>();
    expectTypeOf(safeParseEventContent("s.room.create", {})).toEqualTypeOf<
      SafeParseResult<{ creatorId: string }>
    >();
    expectTypeOf(parseEvent({})).toEqualTypeOf<MessagingEvent>();
    expectTypeOf(eventScope).returns.toEqualTypeOf<EventScope>();
    expectTypeOf(eventScope).parameter(0).toEqualTypeOf<EventType>();
  });

  it("eventTypes and eventContentSchemas cover exactly the 32 types", () => {
    expectTypeOf(eventTypes).toHaveProperty("length").toEqualTypeOf<32>();
    expectTypeOf<keyof typeof eventContentSchemas>().toEqualTypeOf<EventType>();
    // The library's internal issue codes are exactly the documented public ones.
    expectTypeOf<IssueCode>().toEqualTypeOf<EventValidationIssueCode>();
    // EventType is written out (so that the API reference names it); the list is the one truth.
    expectTypeOf<(typeof eventTypes)[number]>().toEqualTypeOf<EventType>();
    expectTypeOf<EventType>().toExtend<`s.${string}`>();
  });
});
