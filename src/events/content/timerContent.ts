import * as z from "zod/mini";
import { dateTime } from "../../internal/dateTime.js";

/**
 * Content schema of `s.timer`, a discriminated union on `status`: `RUNNING` with `expires` (an
 * RFC 3339 date-time with offset, required), or `CANCELLED` / `EXPIRED` with no other field.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { timerContent } from "messaging-events/events";
 *
 * const timer = timerContent.parse({ status: "RUNNING", expires: "2026-11-22T18:00:00Z" });
 * if (timer.status === "RUNNING") console.log(new Date(timer.expires).getTime());
 * ```
 */
export const timerContent = /* @__PURE__ */ z.discriminatedUnion("status", [
  z.strictObject({ status: z.literal("RUNNING"), expires: dateTime() }),
  z.strictObject({ status: z.enum(["CANCELLED", "EXPIRED"]) }),
]);
