// The Standard Schema v1 and Standard JSON Schema v1 interfaces, declared here rather than imported
// from @standard-schema/spec (as zod and valibot do), so that the published types need no
// dependency. They are structurally the spec's: a type test checks them against the spec package.
import type { EventValidationIssue } from "../events/EventValidationError.js";

/**
 * What `validate` returns: `{ value }` with the validated copy, or `{ issues }` with the library's
 * issues (`message`, `path`, plus `code` and `pointer`), the Standard Schema v1 result.
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import { type StandardResult, presenceContent } from "messaging-events/standard";
 *
 * const result: StandardResult<{ status: string }> = presenceContent["~standard"].validate({ status: "AWAY" });
 * if (result.issues === undefined) console.log(result.value.status); // "AWAY"
 * ```
 */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly EventValidationIssue[] };

/**
 * A Standard Schema v1 object (`~standard` with `version` 1, `vendor` `"messaging-events"` and a
 * synchronous `validate`), which every library that takes a Standard Schema accepts: TanStack Form,
 * React Hook Form's `standardSchemaResolver`, tRPC, Hono's `sValidator`… `validate` runs the
 * library's compiled validators (no Zod) and never throws.
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import { type StandardSchema, webhookPayloadSchema } from "messaging-events/standard";
 * import type { WebhookPayload } from "messaging-events/webhooks";
 *
 * const schema: StandardSchema<WebhookPayload, WebhookPayload> = webhookPayloadSchema;
 * console.log(schema["~standard"].vendor); // "messaging-events"
 * ```
 */
export interface StandardSchema<Input, Output> {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** The version of the Standard Schema specification: 1. */
    readonly version: 1;
    /** Who made the schema: `"messaging-events"`. */
    readonly vendor: "messaging-events";
    /**
     * Validates any value and never throws: `{ value }` (the copy the matching `safeParse…`
     * function returns) or `{ issues }`, whose paths and pointers are relative to the value given.
     */
    readonly validate: (value: unknown) => StandardResult<Output>;
    /** The input and output types, for inference only (absent at run time). */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/**
 * What the `jsonSchema` converters take: the JSON Schema dialect to answer in. `"draft-2020-12"`
 * (the default) returns the shipped document; `"draft-07"` the same rules in that dialect; any
 * other target throws, as the Standard JSON Schema specification asks.
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import { type StandardJsonSchemaOptions, timerContent } from "messaging-events/standard";
 *
 * const options: StandardJsonSchemaOptions = { target: "draft-07" };
 * console.log(timerContent["~standard"].jsonSchema.input(options).$schema); // "http://json-schema.org/draft-07/schema#"
 * ```
 */
export interface StandardJsonSchemaOptions {
  /**
   * The dialect: `"draft-2020-12"` or `"draft-07"`.
   * @default "draft-2020-12"
   */
  readonly target?: string | undefined;
  /** Accepted, as the specification asks, and unused. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/**
 * A {@link StandardSchema} that also implements Standard JSON Schema v1: `~standard.jsonSchema`
 * has `input` and `output`, each returning a fresh copy of the shipped JSON Schema of the value
 * (the same for both, since validation changes no type). Form generators, OpenAPI tools and AI
 * tool definitions read it.
 *
 * Exported from `messaging-events/standard`.
 *
 * @example
 * ```ts
 * import { messageTextContent, type StandardSchemaWithJsonSchema } from "messaging-events/standard";
 *
 * const schema: StandardSchemaWithJsonSchema<unknown, { body: string }> = messageTextContent;
 * console.log(schema["~standard"].jsonSchema.output({ target: "draft-2020-12" }).required); // ["body"]
 * ```
 */
export interface StandardSchemaWithJsonSchema<Input, Output> extends StandardSchema<Input, Output> {
  /** The Standard Schema and Standard JSON Schema properties. */
  readonly "~standard": StandardSchema<Input, Output>["~standard"] & {
    /** The JSON Schema of what `validate` accepts (`input`) and returns (`output`). */
    readonly jsonSchema: {
      /** The JSON Schema of the accepted input; throws for a target other than draft 2020-12 and draft-07. */
      readonly input: (options?: StandardJsonSchemaOptions) => Record<string, unknown>;
      /** The JSON Schema of the validated output; throws for a target other than draft 2020-12 and draft-07. */
      readonly output: (options?: StandardJsonSchemaOptions) => Record<string, unknown>;
    };
  };
}
