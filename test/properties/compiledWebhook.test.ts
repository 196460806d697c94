/**
 * Webhook payloads are validated by code generated from `webhookPayloadSchema` (see
 * scripts/validatorGenerator.ts). They must answer exactly as the Zod-interpreted schema does: the
 * same verdict, the same copy of the payload, and on failure the same code, event type, message,
 * omitted count and issues, in order. Valid payloads of every webhook type, near misses of them,
 * random mutations, and small limits, on every run.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ValidationLimits } from "../../src/events/index.js";
import { parseWebhookPayload, safeParseWebhookPayload } from "../../src/webhooks/index.js";
import { interpretWebhookPayload } from "../../src/webhooks/interpretWebhookPayload.js";
import { webhookEventTypes } from "../../src/webhooks/webhookEventTypes.js";
import { asResult, expectSame } from "../support/compiled/contract.js";
import { mutated } from "../support/mutations.js";
import { nearMiss } from "../support/nearMiss.js";
import { validContent } from "../support/validContent.js";

const optionalString = fc.option(fc.string({ maxLength: 8 }), { nil: undefined });

/** A valid payload of one webhook type, with any of its optional members. */
const validPayload = (type: (typeof webhookEventTypes)[number]) =>
  fc.record(
    {
      type: fc.constant(type),
      version: fc.constant(2),
      content: type in validContent ? validContent[type as keyof typeof validContent] : fc.jsonValue(),
      roomId: optionalString,
      senderId: optionalString,
      recipients: fc.array(fc.record({ id: fc.string({ maxLength: 6 }), externalId: optionalString }), {
        maxLength: 3,
      }),
      referenceId: optionalString,
      preconditions: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), {
        maxKeys: 3,
      }),
      "x-extra": fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ["type", "version", "content"] },
  );

const anyPayload = fc.oneof(...webhookEventTypes.map(validPayload));
const limits: fc.Arbitrary<ValidationLimits | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  fc.record({ maxDepth: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ maxNodes: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ maxIssues: fc.integer({ min: 1, max: 3 }) }),
);

function check(payload: unknown, options?: ValidationLimits): void {
  const reference = interpretWebhookPayload(payload, options);
  expectSame(safeParseWebhookPayload(payload, options), reference, "safeParseWebhookPayload");
  expectSame(
    asResult(() => parseWebhookPayload(payload, options)),
    reference,
    "parseWebhookPayload",
  );
}

describe("compiled webhook payloads answer as the interpreted schema does", () => {
  it("on 600 valid payloads of every webhook type, under any limits", () => {
    fc.assert(
      fc.property(anyPayload, limits, (payload, options) => check(payload, options)),
      { numRuns: 600 },
    );
  });

  it("on 1,200 near misses and mutations, under any limits", () => {
    fc.assert(
      fc.property(
        fc.oneof(anyPayload.chain(nearMiss), anyPayload.chain(mutated)),
        limits,
        (payload, options) => check(payload, options),
      ),
      { numRuns: 1200 },
    );
  });

  it("on values that are no payload at all, and on unknown or hostile types", () => {
    for (const value of [
      null,
      [],
      "s.message.text",
      { type: "s.unknown", version: 2, content: {} },
      { type: "x".repeat(500), version: 2 },
      { type: "\u202e\u0000evil", version: 2, content: {} },
      { type: "s.message.text", version: 2, content: { body: "Hi" }, recipients: [{}, { id: 1 }] },
    ]) {
      check(value);
    }
    const failed = safeParseWebhookPayload({ type: "\u202e\u0000evil", version: 2, content: {} });
    expect(failed.error?.eventType).not.toContain("\u202e");
  });
});
