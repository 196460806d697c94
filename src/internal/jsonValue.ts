import type * as z from "zod/mini";
import { ZodMiniCustom } from "zod/mini";
import { $constructor } from "zod/v4/core";
import { findNonJson } from "./findNonJson.js";
import { isPlainObject } from "./isPlainObject.js";

interface JsonSchemaDef extends z.core.$ZodCustomDef {
  /** Whether the value itself must be a plain object (annotations, preconditions), not any JSON value (open content). */
  readonly requireObject: boolean;
}

// A Zod schema type of its own rather than `z.custom().check(...)`: it reports each problem at the
// exact path where the value stops being JSON, and it keeps that behaviour and its JSON Schema
// form when Zod clones it (`.check()`, `.register()`), because a clone re-runs this initializer.
const ZodMiniJson: $constructor<
  z.ZodMiniCustom<unknown, unknown>,
  JsonSchemaDef
> = /* @__PURE__ */ $constructor("ZodMiniJson", (inst, def) => {
  ZodMiniCustom.init(inst, def);
  inst._zod.check = (payload) => {
    const value = payload.value;
    if (def.requireObject && !isPlainObject(value)) {
      payload.issues.push({ code: "invalid_type", expected: "object", input: value, inst });
      return;
    }
    const finding = findNonJson(value);
    if (finding === undefined) return;
    payload.issues.push({
      code: "custom",
      input: value,
      inst,
      path: finding.path,
      params: finding.limit
        ? { rule: finding.limit }
        : { expected: "json", found: finding.found, atRoot: finding.path.length === 0 },
    });
  };
  inst._zod.processJSONSchema = (_context, json) => {
    if (def.requireObject) json.type = "object";
  };
});

/**
 * Any JSON value (the content of the empty-schema types); `T` is the type it validates to
 * (the public `JsonValue`). Anything else is reported at the exact place it stops being JSON. In
 * JSON Schema it is the empty schema, which accepts every JSON document.
 */
// @__NO_SIDE_EFFECTS__
export function jsonValue<T = unknown>(): z.ZodMiniCustom<T, T> {
  return new ZodMiniJson({
    type: "custom",
    check: "custom",
    fn: () => true,
    requireObject: false,
  }) as z.ZodMiniCustom<T, T>;
}

/**
 * Any JSON object, not `null` and not an array (`T`: the public `JsonObject`): the shape of `annotations` and
 * `preconditions`, which the spec does not show. In JSON Schema: `{ "type": "object" }`.
 */
// @__NO_SIDE_EFFECTS__
export function jsonObject<T = Record<string, unknown>>(): z.ZodMiniCustom<T, T> {
  return new ZodMiniJson({
    type: "custom",
    check: "custom",
    fn: () => true,
    requireObject: true,
  }) as z.ZodMiniCustom<T, T>;
}
