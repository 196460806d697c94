/**
 * Inputs for the JSON Schema files of the payloads and documents, and the library's verdict on each:
 * valid values written from the service's description (as test/support/validContent.ts writes
 * content), near misses (one change anywhere, or one deliberate edit of a class), arbitrary JSON,
 * and the conformance rows of the content placed into payloads and documents. Every input is JSON
 * (what a validator in another language would be given). Used by the Ajv differential
 * (differential.test.ts) and by Python's jsonschema (python.test.ts).
 */
import fc from "fast-check";
import { errorDocumentSchema } from "../../scripts/contracts/errorDocumentSchema.js";
import { type EventType, eventTypes, safeParseEvent, safeParseEventContent } from "../../src/events/index.js";
import { safeParseEventDocument, safeParseEventResource } from "../../src/jsonapi/index.js";
import {
  safeParseWebhookPayload,
  type WebhookEventType,
  webhookEventTypes,
} from "../../src/webhooks/index.js";
import { conformanceCases } from "../conformance/cases.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { jsonObject, text, validContent } from "../support/validContent.js";

/** What JSON can carry of a value: a validator in another language is given the parsed text. */
export const asJson = (value: unknown): unknown => {
  const text = JSON.stringify(value, (_key, member: unknown) =>
    typeof member === "bigint" ? Number(member) : member,
  );
  return text === undefined ? null : (JSON.parse(text) as unknown);
};

/** The JSON Schema files of the payloads and the documents: the ones this suite proves. */
export const contractSchemaFiles = [
  ...webhookEventTypes.map((type) => `webhook-payload.${type}.json`),
  "webhook-payload.json",
  "event-document.json",
  "event-resource-document.json",
  "error-document.json",
] as const;

export type ContractSchemaFile = (typeof contractSchemaFiles)[number];

/** The library's verdict on a value for the file that describes it. */
export function libraryAccepts(file: string, value: unknown): boolean {
  if (file === "webhook-payload.json") return safeParseWebhookPayload(value).success;
  const payloadType = /^webhook-payload\.(.+)\.json$/.exec(file)?.[1];
  if (payloadType !== undefined) {
    const result = safeParseWebhookPayload(value);
    return result.success && result.data.type === payloadType;
  }
  if (file === "event-document.json") return safeParseEventDocument(value).success;
  if (file === "event-resource-document.json") return safeParseEventResource(value).success;
  if (file === "error-document.json") return errorDocumentSchema.safeParse(value).success;
  if (file === "event.json") return safeParseEvent(value).success;
  const contentType = /^(s\..+)\.json$/.exec(file)?.[1];
  if (contentType !== undefined) return safeParseEventContent(contentType as EventType, value).success;
  throw new Error(`no library verdict for ${file}`);
}

// ---------------------------------------------------------------------------------------------------
// Webhook payloads

const extraMembers = fc.dictionary(
  fc.string({ maxLength: 6 }).map((key) => `x-${key}`),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 2, noNullPrototype: true },
);

const recipient = fc
  .tuple(fc.record({ id: text(), externalId: text() }, { requiredKeys: ["id"] }), extraMembers)
  .map(([members, extras]) => ({ ...extras, ...members }));

const webhookContent = (type: WebhookEventType): fc.Arbitrary<unknown> =>
  type === "s.message.delete" ? fc.jsonValue({ maxDepth: 3 }) : validContent[type];

/** A valid payload of one webhook type, with any of the optional members and members not listed. */
export const validPayload = (type: WebhookEventType): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      fc.record(
        {
          type: fc.constant(type),
          version: fc.constant(2),
          content: webhookContent(type),
          roomId: text(),
          senderId: text(),
          senderExternalId: text(),
          recipients: fc.array(recipient, { maxLength: 3 }),
          referenceId: text(),
          livechatId: text(),
          preconditions: jsonObject,
        },
        { requiredKeys: ["type", "version", "content"] },
      ),
      extraMembers,
    )
    .map(([payload, extras]) => asJson({ ...extras, ...payload }));

const anyValidPayload = fc.constantFrom(...webhookEventTypes).chain(validPayload);

/** Payloads of every kind: valid, one change away, one edit of a class away, of another type, not payloads. */
export const payloadInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: anyValidPayload },
  { weight: 4, arbitrary: anyValidPayload.chain(mutated).map(asJson) },
  { weight: 2, arbitrary: anyValidPayload.chain((payload) => nearMiss(payload)).map(asJson) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        anyValidPayload,
        fc.constantFrom<unknown>("s.delete", "s.message.action", 2, null, "S.ROOM.CLOSE"),
      )
      .map(([payload, type]) => ({ ...(payload as object), type })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(anyValidPayload, fc.constantFrom<unknown>(1, "2", 2.5, null))
      .map(([payload, version]) => ({ ...(payload as object), version })),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

// ---------------------------------------------------------------------------------------------------
// JSON:API documents

/** Member names: valid JSON:API field names, and names at the edge of the rule. */
const memberName = fc.oneof(
  { weight: 12, arbitrary: fc.stringMatching(/^[A-Za-z0-9](?:[-_A-Za-z0-9]{0,6}[A-Za-z0-9])?$/) },
  fc.constantFrom(
    "type",
    "id",
    "links",
    "relationships",
    "_private",
    "trailing-",
    "with space",
    "naïve",
    "a\n",
    "",
    "x".repeat(256),
    "x".repeat(257),
    "__proto__",
  ),
  fc.string({ maxLength: 6 }),
);

/** Idempotency keys: valid ones, and ones at the edge of the rule. */
const idempotencyKey = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 4, arbitrary: fc.stringMatching(/^[!-+\--~]{1,12}$/) },
  fc.constantFrom("k".repeat(255), "k".repeat(256), "", "a,b", "a b", "key\n", "ключ", "\u007f", "k1, k2"),
);

const resourceId = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[0-9A-Z]{26}$/) },
  fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
  fc.constantFrom("", " ", "\t\n", "😀".repeat(26), "😀".repeat(27), "id"),
);

const metaObject = jsonObject;
const link = fc.oneof(
  { weight: 4, arbitrary: text() },
  { weight: 4, arbitrary: fc.record({ href: text(), meta: metaObject }, { requiredKeys: ["href"] }) },
  fc.constantFrom<unknown>(null, 5, { meta: {} }, { href: "h", rel: "self" }),
);
const links = fc.dictionary(memberName, link, { maxKeys: 2, noNullPrototype: true });
const identifier = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ type: text(), id: text(), meta: metaObject }, { requiredKeys: ["type", "id"] }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { type: "rooms" },
      { type: 1, id: "r" },
      { type: "r", id: "1", x: 1 },
      "room",
    ),
  },
);
const relationship = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        data: fc.oneof(identifier, fc.constant(null), fc.array(identifier, { maxLength: 2 })),
        links,
        meta: metaObject,
      },
      { requiredKeys: ["data"] },
    ),
  },
  fc.constantFrom<unknown>({}, null, [], { data: { type: "rooms", id: "r" }, extra: 1 }),
);
const relationships = fc.dictionary(memberName, relationship, { maxKeys: 2, noNullPrototype: true });

/** Valid attributes of a document: the event type, its content, and further attributes. */
const attributesOf = (type: EventType) =>
  fc
    .tuple(
      validContent[type],
      fc.dictionary(memberName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2, noNullPrototype: true }),
    )
    .map(([content, extra]) => ({ ...extra, eventType: type, content }));

/** A request (`resource: false`) or response (`resource: true`) document, mostly valid. */
export const documentOf = (resource: boolean): fc.Arbitrary<unknown> =>
  fc
    .constantFrom(...eventTypes)
    .chain((type) =>
      fc.record(
        {
          data: fc.record(
            {
              type: fc.constant("events"),
              id: resourceId,
              attributes: attributesOf(type),
              relationships,
              meta: fc
                .tuple(fc.record({ "idempotency-key": idempotencyKey }, { requiredKeys: [] }), extraMembers)
                .map(([meta, extras]) => ({ ...extras, ...meta })),
              links,
            },
            { requiredKeys: resource ? ["type", "id", "attributes"] : ["type", "attributes"] },
          ),
          meta: metaObject,
          jsonapi: fc.oneof(
            {
              weight: 6,
              arbitrary: fc.record(
                { version: fc.constantFrom("1.0", "1.1"), meta: metaObject },
                { requiredKeys: [] },
              ),
            },
            fc.constantFrom<unknown>({ version: 1 }, { ext: [] }),
          ),
          links,
          ...(resource ? { included: fc.array(metaObject, { maxLength: 2 }) } : {}),
        },
        { requiredKeys: ["data"] },
      ),
    )
    .map(asJson);

/** Documents of every kind: mostly valid, one change away, one edit of a class away, not documents. */
export const documentInput = (resource: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: documentOf(resource) },
    { weight: 3, arbitrary: documentOf(resource).chain(mutated).map(asJson) },
    {
      weight: 2,
      arbitrary: documentOf(resource)
        .chain((document) => nearMiss(document))
        .map(asJson),
    },
    {
      weight: 1,
      arbitrary: documentOf(resource).map((document) => ({ ...(document as object), errors: [] })),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );

// ---------------------------------------------------------------------------------------------------
// Error documents

const errorObject = fc.record(
  {
    id: text(),
    status: fc.oneof(
      fc.constantFrom("400", "401", "409", "422", "500", "503"),
      fc.constantFrom("200", "4000", "42", "5xx", " 422", "422\n", "٤٢٢"),
      fc.stringMatching(/^[0-9]{1,4}$/),
    ),
    code: fc.oneof(fc.constantFrom("ERR_INTERNAL", "too_long", "required"), text()),
    title: text(),
    detail: text(),
    source: fc.record({ pointer: text(), parameter: text(), header: text() }, { requiredKeys: [] }),
    meta: metaObject,
    links: metaObject,
  },
  { requiredKeys: ["status", "code", "title", "detail"] },
);

/** Error documents, mostly valid. */
export const errorDocument: fc.Arbitrary<unknown> = fc
  .record(
    {
      errors: fc.array(errorObject, { minLength: 1, maxLength: 3 }),
      meta: fc.oneof(fc.record({ omittedErrors: fc.integer({ min: -1, max: 50 }) }), metaObject),
      jsonapi: metaObject,
      links: metaObject,
    },
    { requiredKeys: ["errors"] },
  )
  .map(asJson);

/** Error documents of every kind: mostly valid, one change away, one edit of a class away, not documents. */
export const errorDocumentInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: errorDocument },
  { weight: 3, arbitrary: errorDocument.chain(mutated).map(asJson) },
  { weight: 2, arbitrary: errorDocument.chain((document) => nearMiss(document)).map(asJson) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>({ errors: [] }, { errors: [{}] }, { data: null, errors: [] }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** The inputs of each file. */
export function inputsFor(file: ContractSchemaFile): fc.Arbitrary<unknown> {
  if (file.startsWith("webhook-payload")) return payloadInput;
  if (file === "event-document.json") return documentInput(false);
  if (file === "event-resource-document.json") return documentInput(true);
  return errorDocumentInput;
}

// ---------------------------------------------------------------------------------------------------
// The conformance rows, placed

const webhookTypes: ReadonlySet<string> = new Set(webhookEventTypes);

/**
 * Every conformance row of the content as a request and a response document, and each row of the
 * six content types that are webhook types as a payload: `[file, value]` with the content in place.
 */
export function placedConformanceRows(): [ContractSchemaFile, unknown][] {
  const placed: [ContractSchemaFile, unknown][] = [];
  for (const row of conformanceCases) {
    const attributes = { eventType: row.type, content: row.content };
    placed.push(["event-document.json", asJson({ data: { type: "events", attributes } })]);
    placed.push([
      "event-resource-document.json",
      asJson({ data: { id: "01JDA3W9Q4C8K2M5N7P0R3S6T9", type: "events", attributes } }),
    ]);
    if (webhookTypes.has(row.type)) {
      const payload = asJson({ type: row.type, version: 2, content: row.content, roomId: "room-1" });
      placed.push(["webhook-payload.json", payload]);
      placed.push([`webhook-payload.${row.type}.json` as ContractSchemaFile, payload]);
    }
  }
  return placed;
}
