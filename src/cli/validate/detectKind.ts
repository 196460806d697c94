/** What a value is validated as. */
export type ValueKind = "event" | "document" | "payload";

/** The kinds, in the order `--kind` lists them. */
export const valueKinds: readonly ValueKind[] = ["event", "document", "payload"];

// Members a webhook payload may carry besides `type` and `content`.
const payloadMembers = [
  "version",
  "roomId",
  "senderId",
  "senderExternalId",
  "recipients",
  "referenceId",
  "livechatId",
  "preconditions",
];

/**
 * Guesses what a parsed JSON value is meant to be: an object with `data` is a JSON:API event
 * document; one with `version` or another webhook payload member (`roomId`, `senderId`,
 * `recipients`…) is a webhook payload; anything else is an event `{ type, content }`, so that a
 * misspelt member is reported as unknown rather than turning the value into something else.
 */
export function detectKind(value: unknown): ValueKind {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "event";
  if (Object.hasOwn(value, "data")) return "document";
  for (const member of payloadMembers) if (Object.hasOwn(value, member)) return "payload";
  return "event";
}
