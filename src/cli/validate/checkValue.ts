import { safeParseEvent } from "../../events/index.js";
import { type EventAttributeNames, safeParseEventDocument } from "../../jsonapi/index.js";
import { safeParseWebhookPayload } from "../../webhooks/index.js";
import { detectKind, type ValueKind } from "./detectKind.js";
import type { ValueResult } from "./ValueResult.js";

/** How values are checked: a fixed kind or detection, and the document attribute names. */
export interface CheckOptions {
  readonly kind: ValueKind | undefined;
  readonly attributeNames: EventAttributeNames | undefined;
}

/** Validates one parsed value with the library and says what it found. */
export function checkValue(
  value: unknown,
  options: CheckOptions,
  file: string,
  line: number,
  index: number | undefined,
): ValueResult {
  const kind = options.kind ?? detectKind(value);
  const result =
    kind === "event"
      ? safeParseEvent(value)
      : kind === "document"
        ? safeParseEventDocument(
            value,
            options.attributeNames === undefined ? undefined : { attributeNames: options.attributeNames },
          )
        : safeParseWebhookPayload(value);
  // One object shape for every result (no spreads: this runs once per value of a stream); members
  // left undefined are dropped by JSON.stringify.
  if (result.success) {
    return {
      file,
      line,
      index,
      kind,
      valid: true,
      code: undefined,
      issues: undefined,
      omittedIssues: undefined,
    };
  }
  const { error } = result;
  return {
    file,
    line,
    index,
    kind,
    valid: false,
    code: error.code,
    issues: error.issues.map((issue) => ({
      pointer: issue.pointer,
      code: issue.code,
      message: issue.message,
    })),
    omittedIssues: error.omittedIssues > 0 ? error.omittedIssues : undefined,
  };
}

/** Where `JSON.parse` stopped, from its message, if it says (the message itself may echo the input). */
export function jsonErrorPosition(error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : "";
  const position = /at position (\d+)/.exec(message);
  return position === null ? undefined : Number(position[1]);
}
