import { describe, expectTypeOf, it } from "vitest";
import { isMessageTextContent, isTimerContent } from "./contentGuards.js";
import type { EventContent, MessagingEvent } from "./EventContent.js";
import { isEvent } from "./isEvent.js";
import { isEventContent } from "./isEventContent.js";

describe("guards", () => {
  it("narrow what they are given to the validated type", () => {
    const value = {} as unknown;
    if (isMessageTextContent(value)) expectTypeOf(value).toEqualTypeOf<EventContent<"s.message.text">>();
    if (isTimerContent(value)) expectTypeOf(value).toEqualTypeOf<EventContent<"s.timer">>();
    if (isEventContent("s.room.pin", value)) expectTypeOf(value).toEqualTypeOf<{ value: boolean }>();
    if (isEventContent("s.room.pin" as string, value)) expectTypeOf(value).toEqualTypeOf<EventContent>();
    if (isEvent(value)) {
      expectTypeOf(value).toEqualTypeOf<MessagingEvent>();
      if (value.type === "s.room.pin") expectTypeOf(value.content).toEqualTypeOf<{ value: boolean }>();
    }
    expectTypeOf(isEvent).returns.toEqualTypeOf<boolean>();
  });
});
