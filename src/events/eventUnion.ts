import * as z from "zod/mini";
import { eventContentSchemas } from "./eventContentSchemas.js";
import { eventTypes } from "./eventTypes.js";

/**
 * @internal The 32 `{ [typeKey]: type, [contentKey]: content }` variants, one per event type, each
 * built by `objectOf` (strict for events, loose for JSON:API attributes). `eventSchema` and the
 * JSON:API attribute unions share it; each caller gives the union its precise type.
 */
// @__NO_SIDE_EFFECTS__
export function eventVariants(
  typeKey: string,
  contentKey: string,
  objectOf: (shape: Record<string, z.core.$ZodType>) => z.ZodMiniObject,
): z.ZodMiniObject[] {
  return eventTypes.map((type) =>
    objectOf({ [typeKey]: z.literal(type), [contentKey]: eventContentSchemas[type] }),
  );
}
