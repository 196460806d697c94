/**
 * The contract the compiled validators keep with the interpreted reference, as assertions: the same
 * verdict; on success the same `data` (deep and strict, the same members present); on failure the
 * same error code, event type, message, omitted count and issues (code, path, pointer, message and
 * the message's parameters) in the same order; and, for JSON under the default limits, Ajv's verdict
 * on the shipped JSON Schema.
 */
import { expect } from "vitest";
import * as events from "../../../src/events/index.js";
import {
  type EventType,
  EventValidationError,
  eventContentSchemas,
  eventTypes,
  parseEvent,
  parseEventContent,
  type SafeParseResult,
  safeParseEvent,
  safeParseEventContent,
  type ValidationLimits,
} from "../../../src/events/index.js";
import { interpretEvent, interpretEventContent } from "../../../src/events/interpretEvent.js";
import { compileShippedSchemas } from "../ajv.js";
import { isJsonRepresentable } from "../nearMiss.js";
import { canonical } from "./snapshot.js";

const ajv = compileShippedSchemas();

export type PerTypeParse = (content: unknown, limits?: ValidationLimits) => SafeParseResult<unknown>;

/** The per-type functions that exist (`safeParseMessageTextContent` for `messageTextContent`), by type. */
export const perType = new Map<EventType, { name: string; parse: PerTypeParse }>();
for (const type of eventTypes) {
  const schemaName = Object.entries(events).find(([, value]) => value === eventContentSchemas[type])?.[0];
  if (schemaName === undefined) continue;
  const name = `safeParse${schemaName.charAt(0).toUpperCase()}${schemaName.slice(1)}`;
  const parse = (events as Record<string, unknown>)[name];
  if (typeof parse === "function") perType.set(type, { name, parse: parse as PerTypeParse });
}

/** What the contract compares of a result. */
function comparable(result: SafeParseResult<unknown>) {
  if (result.success) return { success: true, data: canonical(result.data) };
  const { error } = result;
  return {
    success: false,
    isError: error instanceof EventValidationError,
    name: error.name,
    code: error.code,
    eventType: error.eventType,
    message: error.message,
    omittedIssues: error.omittedIssues,
    issues: error.issues.map(({ code, path, pointer, message, params }) => ({
      code,
      path,
      pointer,
      message,
      params,
    })),
  };
}

export function expectSame(
  actual: SafeParseResult<unknown>,
  reference: SafeParseResult<unknown>,
  what: string,
): void {
  expect(comparable(actual), what).toStrictEqual(comparable(reference));
}

/** The thrown error or returned data of a `parse…` function, as a result. */
export function asResult(parse: () => unknown): SafeParseResult<unknown> {
  try {
    return { success: true, data: parse() };
  } catch (error) {
    expect(error).toBeInstanceOf(EventValidationError);
    return { success: false, error: error as EventValidationError };
  }
}

/**
 * Whether Ajv's verdict must be the library's: for JSON under the default limits (JSON Schema has
 * no limits on nesting or size, the one deliberate difference).
 */
function ajvApplies(value: unknown, limits: ValidationLimits | undefined, result: SafeParseResult<unknown>) {
  if (limits !== undefined || !isJsonRepresentable(value)) return false;
  return !result.error?.issues.some((issue) => issue.code === "too_deep" || issue.code === "too_many_nodes");
}

/** Compiled against interpreted (and Ajv, for JSON without limits) on one content. */
export function checkContent(type: EventType, content: unknown, limits?: ValidationLimits): void {
  const reference = interpretEventContent(type, content, limits);
  const compiled = safeParseEventContent(type, content, limits);
  expectSame(compiled, reference, `safeParseEventContent(${type})`);
  expectSame(
    asResult(() => parseEventContent(type, content, limits)),
    reference,
    `parseEventContent(${type})`,
  );
  const single = perType.get(type);
  if (single) expectSame(single.parse(content, limits), reference, single.name);
  if (ajvApplies(content, limits, reference)) {
    expect(ajv.content(type)(content), `Ajv on ${type}`).toBe(compiled.success);
  }
}

/** Compiled against interpreted (and Ajv, for JSON without limits) on one whole event. */
export function checkEvent(event: unknown, limits?: ValidationLimits): void {
  const reference = interpretEvent(event, limits);
  const compiled = safeParseEvent(event, limits);
  expectSame(compiled, reference, "safeParseEvent");
  expectSame(
    asResult(() => parseEvent(event, limits)),
    reference,
    "parseEvent",
  );
  if (ajvApplies(event, limits, reference)) {
    expect(ajv.event(event), "Ajv on the event").toBe(compiled.success);
  }
}
