// A TypeScript consumer of the packed package: every subpath, with a typed example of each main function.

import * as everything from "messaging-events";
import { type CreatedEvent, createEventsClient, EventsApiError } from "messaging-events/client";
import {
  type EventContent,
  type MessagingEvent,
  messageTextContent,
  parseEvent,
  safeParseEventContent,
} from "messaging-events/events";
import { createIdempotencyKey, readIdempotencyKey, withIdempotencyKey } from "messaging-events/idempotency";
import {
  createEventDocument,
  type JsonApiError,
  safeParseEventDocument,
  toJsonApiErrors,
} from "messaging-events/jsonapi";
import {
  safeVerifyWebhook,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookPayload,
} from "messaging-events/webhooks";

const timer: EventContent<"s.timer"> = { status: "RUNNING", expires: "2026-11-22T18:00:00Z" };
const result = safeParseEventContent("s.timer", timer);
if (result.success && result.data.status === "RUNNING") {
  const expires: string = result.data.expires;
  void expires;
}
const event: MessagingEvent = parseEvent({ type: "s.room.pin", content: { value: true } });
if (event.type === "s.room.pin") {
  const pinned: boolean = event.content.value;
  void pinned;
}
const body: string | undefined = messageTextContent.safeParse({ body: "x" }).data?.body;

const document = createEventDocument({ type: "s.message.text", content: { body: "Hello" } });
const keyed = withIdempotencyKey(document, createIdempotencyKey());
const key = readIdempotencyKey({ headers: keyed.headers, document: keyed.document });
const parsed = safeParseEventDocument(keyed.document);
const errors: JsonApiError[] = parsed.success ? [] : toJsonApiErrors(parsed.error).errors;

export async function main(): Promise<void> {
  const signed = await signWebhook({
    payload: { type: "s.room.close", version: 2, content: {} },
    secret: "s",
  });
  const verified = await safeVerifyWebhook({ ...signed, secret: "s" });
  const payload: WebhookPayload = await verifyWebhook({ ...signed, secret: "s" });
  if (verified.success && verified.data.type === "s.message.text") {
    const text: string = verified.data.content.body;
    void text;
  }
  const raw: unknown = (await verifyWebhookSignature({ ...signed, secret: "s" })).payload;
  void raw;
  const client = createEventsClient({
    baseUrl: "https://service.example",
    authorization: async () => "Bearer t",
    retry: { delaysMs: [100, 200], jitter: 0.5 },
  });
  try {
    const { data: created, replayed }: { data: CreatedEvent<"s.message.text">; replayed: boolean } =
      await client.createEvent({
        type: "s.message.text",
        content: { body: "Hi" },
      });
    const text: string = created.attributes.content.body;
    void text;
    void replayed;
  } catch (error) {
    if (error instanceof EventsApiError) console.log(error.status, error.serviceCode, error.errors.length);
  }
  console.log(body, key.success, errors.length, verified.success, payload.type, everything.eventTypes.length);
}
