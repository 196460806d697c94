/**
 * The OpenAPI 3.1 document of the service as the library reads it (`dist/openapi.json`):
 * `POST /events` with its headers, request and response documents and every answer of the server
 * kit, the credential as a security scheme, and the seven webhooks under `webhooks`. Every schema is
 * a `$ref` to a shipped JSON Schema file (relative: `./json-schema/…`), never a copy; every example
 * is the library's own: the example events as it builds their documents, and the answers of the
 * real handler (serverAnswers.ts).
 */
import { IDEMPOTENCY_KEY_HEADER } from "../../src/idempotency/index.js";
import { JSON_API_MEDIA_TYPE } from "../../src/jsonapi/index.js";
import { webhookEventTypes } from "../../src/webhooks/index.js";
import {
  ERROR_DOCUMENT_FILE,
  EVENT_DOCUMENT_FILE,
  EVENT_RESOURCE_DOCUMENT_FILE,
  exampleRequestDocuments,
} from "./documentJsonSchemas.js";
import { eventExamples } from "./eventExamples.js";
import { type ServerAnswer, serverAnswers } from "./serverAnswers.js";
import { webhookExamples } from "./webhookExamples.js";
import { SIGNATURE_SCHEME, signedExample, webhookHeaders } from "./webhookHeaders.js";
import { webhookPayloadFile, webhookSummaries } from "./webhookPayloadJsonSchemas.js";

/** Where the OpenAPI document finds a shipped JSON Schema file: beside it, under json-schema/. */
export const schemaRef = (file: string, pointer = ""): { $ref: string } => ({
  $ref: `./json-schema/${file}${pointer === "" ? "" : `#${pointer}`}`,
});

/** What each status of `POST /events` means, and whether it says when to come back. */
const statuses: Record<number, { description: string; retryAfter?: string }> = {
  201: { description: "" },
  400: {
    description:
      "The body is not JSON (`ERR_BODY_NOT_JSON`), or the idempotency key is invalid or sent twice (`ERR_IDEMPOTENCY_KEY_INVALID`), or differs between the header and `data.meta` (`ERR_IDEMPOTENCY_KEY_MISMATCH`).",
  },
  401: {
    description:
      "The credentials are missing or refused (`ERR_UNAUTHORIZED`). The answer names the scheme in `WWW-Authenticate`.",
  },
  406: { description: "`Accept` excludes the JSON:API media type (`ERR_NOT_ACCEPTABLE`)." },
  408: {
    description:
      "The body did not arrive in full within the server's `bodyTimeoutMs` (`ERR_BODY_TIMEOUT`): send it again, at once.",
  },
  409: {
    description:
      "A request with the same idempotency key is still being created (`ERR_IDEMPOTENCY_KEY_IN_FLIGHT`): retry with the same key and document after `Retry-After`.",
    retryAfter: "Seconds to wait before retrying with the same key: a third of the server's lease, 1 to 5.",
  },
  413: {
    description:
      "The body is longer than the server's `maxBodyBytes`, 1 MiB by default (`ERR_BODY_TOO_LARGE`).",
  },
  415: {
    description:
      "`Content-Type` is not `application/vnd.api+json`, or has parameters other than `ext` and `profile` (`ERR_UNSUPPORTED_MEDIA_TYPE`).",
  },
  422: {
    description:
      "The document or its content is invalid: one error per problem, with its issue code (`required`, `invalid_type`, `too_long`, …) and `source.pointer` into the request document. Or the idempotency key was used before with another document (`ERR_IDEMPOTENCY_KEY_REUSED`): send this event with a new key.",
  },
  429: {
    description:
      "This caller's share of the idempotency store is taken by its own unfinished requests (`ERR_QUOTA_EXCEEDED`).",
    retryAfter: "Seconds to wait before retrying.",
  },
  500: {
    description:
      "The event could not be created (`ERR_INTERNAL`; nothing of the cause is shown). Retrying with the same key is safe.",
  },
  503: {
    description:
      "The idempotency store failed or did not answer in time, or the server is shutting down (`ERR_UNAVAILABLE`), or creating the event took longer than the server's `createTimeoutMs` and its key is free again (`ERR_CREATE_TIMEOUT`). Retry with the same key after `Retry-After`.",
    retryAfter: "Seconds to wait before retrying with the same key.",
  },
};

const exampleKey = (answer: ServerAnswer, index: number) =>
  answer.status === 201 ? (index === 0 ? "created" : "replayed") : (answer.code ?? String(answer.status));

function responseOf(status: number, answers: readonly ServerAnswer[]): Record<string, unknown> {
  const mine = answers.filter((answer) => answer.status === status);
  if (mine.length === 0) throw new Error(`the handler gave no ${status} to show`);
  const examples = Object.fromEntries(
    mine.map((answer, index) => [exampleKey(answer, index), { summary: answer.summary, value: answer.body }]),
  );
  if (status === 201) {
    return {
      description:
        "Created: the event resource with its new `id`, and `meta.idempotency-key` echoing the key. A retry with the same key and the same document gets the stored answer again, byte for byte, with `Idempotent-Replayed: true`: the event is created once.",
      headers: {
        Location: {
          description: "The URL of the new event, when the server is configured to give one.",
          schema: { type: "string", format: "uri" },
        },
        "Idempotent-Replayed": {
          description: "`true` when this is the stored answer to an earlier request with the same key.",
          schema: { type: "string", enum: ["true"] },
        },
      },
      content: { [JSON_API_MEDIA_TYPE]: { schema: schemaRef(EVENT_RESOURCE_DOCUMENT_FILE), examples } },
    };
  }
  const { description, retryAfter } = statuses[status]!;
  const headers: Record<string, unknown> = {};
  if (retryAfter !== undefined)
    headers["Retry-After"] = {
      description: retryAfter,
      required: true,
      schema: { type: "integer", minimum: 0 },
    };
  if (status === 401)
    headers["WWW-Authenticate"] = {
      description: "The authentication scheme the server expects (`Bearer` by default).",
      required: true,
      schema: { type: "string" },
    };
  return {
    description,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    content: { [JSON_API_MEDIA_TYPE]: { schema: schemaRef(ERROR_DOCUMENT_FILE), examples } },
  };
}

const createEventDescription = `Creates one event from a JSON:API document: one resource of type \`events\` whose attributes \`eventType\` and \`content\` carry the event (the library's reading of the attribute names the service leaves open), its content checked against the schema of its type.

Idempotent creation: send a key of 1 to 255 visible ASCII characters other than the comma in \`${IDEMPOTENCY_KEY_HEADER}\` and as \`data.meta["idempotency-key"]\` (the same value in both). Keys are scoped per caller. A retry with the same key and the same document (after a network error, a time-out, a 5xx, a 429 or a 409) gets the stored answer, with \`Idempotent-Replayed: true\`, so the event is created once; the same key with another document is refused (422). A request without a key is not de-duplicated.

Send \`Accept: application/vnd.api+json\` (or none, or \`*/*\`). Every failure is a JSON:API error document. The server kit answers 404 on any other path and 405 (with \`Allow: POST\`) to any other method.`;

/** The OpenAPI description of `POST /events`. */
async function createEventOperation(): Promise<Record<string, unknown>> {
  const answers = await serverAnswers();
  const requestExamples = exampleRequestDocuments();
  return {
    operationId: "createEvent",
    summary: "Create an event",
    description: createEventDescription,
    tags: ["events"],
    parameters: [
      {
        name: IDEMPOTENCY_KEY_HEADER,
        in: "header",
        required: false,
        description:
          'The idempotency key: the same value as `data.meta["idempotency-key"]`. A new UUID v4 per event is a good key; reuse it for every retry of that event.',
        schema: schemaRef(EVENT_DOCUMENT_FILE, "/properties/data/properties/meta/properties/idempotency-key"),
        example: "7f9c2ba4-e88f-4c1d-9b3a-5d1e0c6a4f21",
      },
    ],
    requestBody: {
      required: true,
      description: "The event to create, as a JSON:API document.",
      content: {
        [JSON_API_MEDIA_TYPE]: {
          schema: schemaRef(EVENT_DOCUMENT_FILE),
          examples: Object.fromEntries(
            eventExamples.map((example, index) => [
              example.name,
              { summary: example.summary, value: requestExamples[index] },
            ]),
          ),
        },
      },
    },
    responses: Object.fromEntries(
      [...new Set(answers.map((answer) => answer.status))].map((status) => [
        String(status),
        responseOf(status, answers),
      ]),
    ),
  };
}

const webhookDescription = (type: string) =>
  `${webhookSummaries[type as keyof typeof webhookSummaries]} The service sends this POST to every URL the customer registered, once per new ${type} event, and retries until the receiver answers 2xx.\n\n${SIGNATURE_SCHEME}`;

/** The OpenAPI description of one webhook. */
async function webhookOperation(type: (typeof webhookEventTypes)[number]): Promise<Record<string, unknown>> {
  const examples = webhookExamples.filter((example) => example.payload.type === type);
  const signed = await signedExample(examples[0]!.payload, "4f1c2d8e-6b3a-4e59-9d7c-2a1b0e9f8c7d");
  const operationName = type
    .replace(/^s\./, "")
    .replace(/\.(\w)/g, (_match, letter: string) => letter.toUpperCase());
  return {
    post: {
      operationId: `${operationName}Webhook`,
      summary: `${type}: ${webhookSummaries[type].split(". ")[0]!.replace(/\.$/, "")}`,
      description: webhookDescription(type),
      tags: ["webhooks"],
      security: [{ webhookSignature: [] }],
      parameters: webhookHeaders.map((header) => ({
        name: header.name,
        in: "header",
        required: header.required,
        description: header.description,
        schema: header.schema,
        example: signed.headers[header.name],
      })),
      requestBody: {
        required: true,
        description: "The webhook payload (version 2).",
        content: {
          "application/json": {
            schema: schemaRef(webhookPayloadFile(type)),
            examples: Object.fromEntries(
              examples.map((example) => [example.name, { summary: example.summary, value: example.payload }]),
            ),
          },
        },
      },
      responses: {
        "2XX": {
          description:
            "Processed: the delivery is done (the library's receiver answers 204, now or for a delivery it processed before). Answer only once the payload is handled: the service retries anything else.",
        },
        "409": {
          description:
            "The same delivery is being handled right now (the library's receiver says so with `Retry-After`): the attempt counts as failed and is retried later.",
        },
        "410": { description: "Gone: the service stops sending to this URL (the endpoint is disabled)." },
        "429": {
          description:
            "Slow down: the next attempt waits at least `Retry-After`, within the service's bounds.",
        },
        "503": {
          description:
            "Unavailable: the next attempt waits at least `Retry-After`, within the service's bounds.",
        },
        default: {
          description:
            "Any other answer (a redirect included: never followed), or none within 15 seconds, fails the attempt. Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each ±20%; then the delivery is dead.",
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document; `version` is the package's. */
export async function openApiDocument(version: string): Promise<Record<string, unknown>> {
  const webhooks: Record<string, unknown> = {};
  for (const type of webhookEventTypes) webhooks[type] = await webhookOperation(type);
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Messaging service: events and webhooks",
      version,
      summary:
        "POST /events and the outgoing webhooks of the messaging service, as the messaging-events library reads them.",
      description:
        "Generated by the messaging-events package from the same schemas its validators run, so it cannot disagree with them. Where the service's description is silent (attribute names, statuses, error documents, key format, signature spelling, retries) it states the library's reading, and the server kit and the emulator (`npx messaging-events serve`) behave exactly so. Every schema is a JSON Schema (draft 2020-12) file shipped beside this document under json-schema/.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [
      {
        url: "http://127.0.0.1:4010",
        description: "The emulator on your machine: npx messaging-events serve",
      },
    ],
    security: [{ credentials: [] }],
    tags: [
      { name: "events", description: "Creating events." },
      { name: "webhooks", description: "What the service sends to the customer's URLs." },
    ],
    paths: { "/events": { post: await createEventOperation() } },
    webhooks,
    components: {
      securitySchemes: {
        credentials: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description:
            "The caller's credentials, the whole header value (`Bearer <token>`, say): the service does not say which scheme. Idempotency keys are scoped per caller.",
        },
        webhookSignature: {
          type: "apiKey",
          in: "header",
          name: "service-signature",
          description: SIGNATURE_SCHEME,
        },
      },
    },
  };
}
