import type { EventContent, EventContentInput } from "../events/EventContent.js";
import type { EventType } from "../events/eventTypes.js";
import { type Checker, type Failure, runChecks, unreadableIssue } from "../events/runCompiled.js";
import type { SafeParseResult } from "../events/SafeParseResult.js";
import type { Issue } from "../internal/issue.js";
import type { ContentStandardSchema } from "./ContentStandardSchema.js";
import { contentJsonSchemaConverter, type JsonSchemaConverter } from "./jsonSchemaConverter.js";
import type { StandardResult, StandardSchemaWithJsonSchema } from "./StandardSchema.js";

/**
 * @internal A Standard Schema object with the Standard JSON Schema converters. Frozen, since one
 * object is shared by every user of the module.
 */
// @__NO_SIDE_EFFECTS__
export function standardSchemaOf<Output, Input = Output>(
  validate: (value: unknown) => StandardResult<Output>,
  jsonSchema: JsonSchemaConverter,
): StandardSchemaWithJsonSchema<Input, Output> {
  const props = { version: 1, vendor: "messaging-events", validate, jsonSchema } as const;
  return Object.freeze({ "~standard": Object.freeze(props) });
}

/** @internal The `validate` of a `safeParse…` function: its copy, or its error's issues. */
// @__NO_SIDE_EFFECTS__
export function validateBy<Output>(
  parse: (value: unknown) => SafeParseResult<Output>,
): (value: unknown) => StandardResult<Output> {
  return (value) => {
    const result = parse(value);
    return result.success ? { value: result.data } : { issues: result.error.issues };
  };
}

/** A failure as Standard Schema reports it: the issues alone, no error made. */
const issuesOnly: Failure<{ readonly issues: readonly Issue[] }> = (_code, _type, issues) => ({ issues });

/**
 * @internal The Standard Schema object of one type's content: its generated validator run on the
 * content alone, so that issue paths, pointers and messages start at the content's own members
 * (`["body"]`, `/body`, `body is required…`) where `safeParseEventContent` puts `content` first. The
 * copy is the one `safeParse…Content` returns; no error is made, so none is in the bundle.
 */
// @__NO_SIDE_EFFECTS__
export function contentStandardSchema<T extends EventType>(
  check: Checker,
  jsonSchemaText: string,
): ContentStandardSchema<T> {
  const validate = (content: unknown): StandardResult<EventContent<T>> => {
    try {
      const result = runChecks<EventContent<T>, { readonly issues: readonly Issue[] }>(
        check,
        content,
        undefined,
        [],
        0,
        "ERR_INVALID_EVENT_CONTENT",
        undefined,
        issuesOnly,
      );
      return "issues" in result ? result : { value: result.data };
    } catch (cause) {
      return { issues: [unreadableIssue([], cause)] };
    }
  };
  return standardSchemaOf<EventContent<T>, EventContentInput<T>>(
    validate,
    contentJsonSchemaConverter(jsonSchemaText),
  );
}
