import * as z from "zod/mini";

/**
 * Content schema of `s.presence` (scope Global): `status`, one of `OFFLINE`, `INVISIBLE`,
 * `INACTIVE`, `AWAY`, `ONLINE`.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import { presenceContent } from "messaging-events/events";
 *
 * presenceContent.parse({ status: "ONLINE" }); // { status: "ONLINE" }
 * ```
 */
export const presenceContent = /* @__PURE__ */ z.strictObject({
  status: z.enum(["OFFLINE", "INVISIBLE", "INACTIVE", "AWAY", "ONLINE"]),
});
