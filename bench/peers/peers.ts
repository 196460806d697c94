/**
 * Every peer validator the content benchmark measures, behind one shape: its check-only verdict
 * (compared with the library's guards), its verdict by the call that returns data and messages
 * where it has one (compared with the library's `safeParse…`), and the first error's message (what
 * a server reads before answering 422), each looked up by type.
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { ValidateFunction } from "ajv";
import { type } from "arktype";
import * as v from "valibot";
import { type EventType, eventTypes } from "../../src/events/index.js";
import { compileShippedSchemas } from "../../test/support/ajv.js";
import { loadAjvStandalone } from "./ajv.js";
import { arktypeSchemas } from "./arktype.js";
import { typeboxSchemas } from "./typebox.js";
import { typiaEquals, typiaValidateEquals } from "./typia/generated/validators.js";
import { valibotSchemas } from "./valibot.js";

type ByType<T> = { readonly [K in EventType]: T };

/** One peer validator. */
export interface Peer {
  /** Its name in tables. */
  readonly name: string;
  /** How the check-only contender calls it (every mix). */
  readonly checkCall: string;
  /** How the valid-mix contender of data and messages calls it. */
  readonly validCall: string;
  /** How the invalid-mix contender calls it. */
  readonly invalidCall: string;
  /** Whether the content is valid, by the peer's fastest boolean check. */
  readonly check: ByType<(content: unknown) => boolean>;
  /** Whether the content is valid, by the call that returns data and messages (`check` where there is none). */
  readonly validate: ByType<(content: unknown) => boolean>;
  /** The message of the first error, or `undefined` when the content is valid. */
  readonly firstError: ByType<(content: unknown) => string | undefined>;
}

const byType = <T>(make: (type: EventType) => T): ByType<T> =>
  Object.fromEntries(eventTypes.map((type) => [type, make(type)])) as unknown as ByType<T>;

function ajvPeer(name: string, validators: ByType<ValidateFunction>): Peer {
  return {
    name,
    checkCall: "validate(v)",
    validCall: "validate(v)",
    invalidCall: "validate(v), then validate.errors[0].message",
    check: validators,
    validate: validators,
    firstError: byType((key) => {
      const validate = validators[key];
      return (content) => (validate(content) ? undefined : validate.errors![0]!.message);
    }),
  };
}

/** Builds (compiles) every peer; the Ajv one with `allErrors: false` comes first: it is the baseline. */
export function createPeers(): { readonly ajv: Peer; readonly typebox: Peer; readonly all: readonly Peer[] } {
  const stopAtFirst = compileShippedSchemas({ allErrors: false });
  const allErrors = compileShippedSchemas({ allErrors: true });
  const ajv = ajvPeer(
    "Ajv, allErrors: false",
    byType((key) => stopAtFirst.content(key)),
  );
  const compiled = byType((key) => TypeCompiler.Compile(typeboxSchemas[key]));
  const check = byType((key) => {
    const validator = compiled[key];
    return (content: unknown) => validator.Check(content);
  });
  const typebox: Peer = {
    name: "TypeBox TypeCompiler",
    checkCall: ".Check(v)",
    validCall: ".Check(v)",
    invalidCall: ".Check(v), then .Errors(v).First().message",
    check,
    validate: check,
    firstError: byType((key) => {
      const validator = compiled[key];
      return (content) => (validator.Check(content) ? undefined : validator.Errors(content).First()!.message);
    }),
  };
  const all: Peer[] = [
    ajv,
    ajvPeer(
      "Ajv, allErrors: true",
      byType((key) => allErrors.content(key)),
    ),
    ajvPeer("Ajv standalone code", loadAjvStandalone()),
    typebox,
    {
      name: "typia (generated)",
      checkCall: "equals(v)",
      validCall: "validateEquals(v).success",
      invalidCall: "validateEquals(v), then errors[0].expected",
      check: byType((key) => typiaEquals[key]!),
      validate: byType((key) => {
        const validate = typiaValidateEquals[key]!;
        return (content) => validate(content).success;
      }),
      firstError: byType((key) => {
        const validate = typiaValidateEquals[key]!;
        return (content) => {
          const result = validate(content);
          return result.success ? undefined : result.errors[0]!.expected;
        };
      }),
    },
    {
      name: "arktype",
      checkCall: ".allows(v)",
      validCall: "schema(v)",
      invalidCall: "schema(v), then errors[0].message",
      check: byType((key) => {
        const schema = arktypeSchemas[key];
        return (content) => schema.allows(content);
      }),
      validate: byType((key) => {
        const schema = arktypeSchemas[key];
        return (content) => !(schema(content) instanceof type.errors);
      }),
      firstError: byType((key) => {
        const schema = arktypeSchemas[key];
        return (content) => {
          const out = schema(content);
          return out instanceof type.errors ? out[0]!.message : undefined;
        };
      }),
    },
    {
      name: "valibot",
      checkCall: "is(schema, v)",
      validCall: "safeParse(schema, v)",
      invalidCall: "safeParse(schema, v), then issues[0].message",
      check: byType((key) => {
        const schema = valibotSchemas[key];
        return (content) => v.is(schema, content);
      }),
      validate: byType((key) => {
        const schema = valibotSchemas[key];
        return (content) => v.safeParse(schema, content).success;
      }),
      firstError: byType((key) => {
        const schema = valibotSchemas[key];
        return (content) => {
          const result = v.safeParse(schema, content);
          return result.success ? undefined : result.issues[0].message;
        };
      }),
    },
  ];
  return { ajv, typebox, all };
}
