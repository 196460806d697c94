import * as z from "zod/mini";

/** The content of the "object, no properties" types: exactly `{}`. */
// @__NO_SIDE_EFFECTS__
export function emptyObject(): z.ZodMiniObject<Record<never, never>, z.core.$strict> {
  return z.strictObject({});
}

/** The content of the room boolean events: `{ value: boolean }`, nothing else. */
// @__NO_SIDE_EFFECTS__
export function booleanValue(): z.ZodMiniObject<{ value: z.ZodMiniBoolean<boolean> }, z.core.$strict> {
  return z.strictObject({ value: z.boolean() });
}

/** The `Agent` / `Bot` and `Auto` / `Manual` value sets that membership and support events share. */
export const ASSIGNEES = ["Agent", "Bot"] as const;
export const TRIGGERS = ["Auto", "Manual"] as const;
