import type { MessagingEvent } from "../events/EventContent.js";
import { safeParseEvent } from "../events/safeParseEvent.js";
import { bundleJsonSchemaConverter } from "./jsonSchemaConverter.js";
import { eventJsonSchema } from "./jsonSchemaTexts.js";
import type { StandardSchemaWithJsonSchema } from "./StandardSchema.js";
import { standardSchemaOf, validateBy } from "./standardSchemaOf.js";

/**
 * The Standard Schema of a whole event, `{ type, content }`, any of the 32 types (named like the
 * Zod union of `messaging-events/events`): `validate` answers as `safeParseEvent` does, issue
 * paths from the event (`["content", "body"]`), and the output is the `MessagingEvent` union,
 * which narrows on `type`; `jsonSchema` gives the shipped `event.json`. For a router or server
 * that takes events of any type.
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import { eventSchema } from "messaging-events/standard";
 *
 * const result = eventSchema["~standard"].validate({ type: "s.message.text", content: { body: 42 } });
 * console.log(result.issues?.[0]?.path); // ["content", "body"]
 * ```
 */
export const eventSchema: StandardSchemaWithJsonSchema<MessagingEvent, MessagingEvent> =
  /* @__PURE__ */ standardSchemaOf(
    /* @__PURE__ */ validateBy(safeParseEvent),
    /* @__PURE__ */ bundleJsonSchemaConverter(eventJsonSchema),
  );
