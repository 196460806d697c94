/**
 * The headers of an outgoing webhook and the signature scheme, in words: what both the OpenAPI and
 * the AsyncAPI document say about them. The schemas describe what the library's dispatcher sends;
 * the examples are real: signed by the library with {@link EXAMPLE_SECRET}, so a receiver can check
 * its verification against them.
 */
import { signWebhook, WEBHOOK_ID_HEADER, type WebhookPayload } from "../../src/webhooks/index.js";

/** The secret the examples are signed with. */
export const EXAMPLE_SECRET = "whsec_example-only-never-use-me";

/** When the examples were signed. */
const EXAMPLE_TIMESTAMP = "2026-11-22T18:00:00.000Z";

/** How a webhook is signed, and how a receiver checks it. */
export const SIGNATURE_SCHEME = [
  "Each webhook is signed with HMAC-SHA-512. The signed string is the value of the service-timestamp header, a colon, and the raw body exactly as sent: `<service-timestamp>:<body>`. The key is the UTF-8 bytes of the secret shared with the customer.",
  "The MAC (64 bytes) is sent in service-signature as unpadded base64url (86 characters); the library's verifier also accepts lowercase or uppercase hex and padded base64.",
  "Every attempt is signed afresh, with its own timestamp. A receiver computes the same MAC over the raw body it received and compares in constant time, and refuses a timestamp more than 300 seconds from its clock, either way.",
  `The examples here are signed with the secret \`${EXAMPLE_SECRET}\` over the example payload serialised as JSON.stringify writes it.`,
].join("\n\n");

/** One header of a webhook request: its name, whether it is always sent, what it holds, its schema. */
export interface WebhookHeader {
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
  readonly schema: Record<string, unknown>;
}

/** The headers the service sends with every webhook, besides `Content-Type: application/json`. */
export const webhookHeaders: readonly WebhookHeader[] = [
  {
    name: "service-timestamp",
    required: true,
    description:
      "When this attempt was signed, an RFC 3339 date-time; it is part of the signed string, exactly as sent.",
    schema: { type: "string", format: "date-time" },
  },
  {
    name: "service-signature",
    required: true,
    description:
      "HMAC-SHA-512 of `<service-timestamp>:<body>` with the shared secret, unpadded base64url (hex and padded base64 are accepted too).",
    schema: { type: "string", minLength: 86, maxLength: 128 },
  },
  {
    name: WEBHOOK_ID_HEADER,
    required: false,
    description:
      "The delivery's id: one per event and endpoint, the same on every attempt of that delivery, so a receiver handles each delivery once. Not covered by the signature.",
    schema: { type: "string", minLength: 1, maxLength: 256 },
  },
];

/** A payload as the service sends it: the body, and its headers signed with {@link EXAMPLE_SECRET}. */
export async function signedExample(
  payload: WebhookPayload,
  deliveryId: string,
): Promise<{ body: string; headers: Record<string, string> }> {
  const signed = await signWebhook({ payload, secret: EXAMPLE_SECRET, timestamp: EXAMPLE_TIMESTAMP });
  return { body: signed.body, headers: { ...signed.headers, [WEBHOOK_ID_HEADER]: deliveryId } };
}
