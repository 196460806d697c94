import type * as z from "zod/mini";
import { ZodMiniCustom } from "zod/mini";
import { $constructor } from "zod/v4/core";
import { describeValue } from "./describe.js";
import { isPlainObject } from "./isPlainObject.js";

/**
 * A JSON value: what `JSON.parse` can return. It types the content of `s.delete`,
 * `s.form.submission` and `s.support.open`, whose schema the spec leaves empty.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { JsonValue } from "messaging-events/events";
 *
 * const content: JsonValue = { reason: "duplicate", ids: ["01JD8X", "01JD8Y"], undo: null };
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object: a plain object whose members are JSON values. It types `annotations` and
 * `preconditions`, whose shape the spec does not show.
 *
 * Exported from `messaging-events/events` and `messaging-events`.
 *
 * @example
 * ```ts
 * import type { JsonObject } from "messaging-events/events";
 *
 * const annotations: JsonObject = { mentions: [{ userId: "user-7", offset: 0 }] };
 * ```
 */
export type JsonObject = { [key: string]: JsonValue };

/** Where a value stops being JSON, and what was found there. */
export interface NonJsonFinding {
  readonly path: (string | number)[];
  readonly found: string;
}

/**
 * Finds the first place where `value` is not a JSON value (`undefined`, a function, a symbol, a
 * bigint, a non-finite number, a class instance, a circular reference), or returns `undefined`.
 * It walks with an explicit stack and builds a path only for what it finds, so neither depth nor
 * size can overflow the call stack or take more than linear memory.
 */
export function findNonJson(value: unknown): NonJsonFinding | undefined {
  // Ordinary JSON, however large, passes the fast recursive check; only values that fail it, or
  // nest deeper than it goes (cycles included), take the walk below that says where and why.
  if (isShallowJson(value, 0) === true) return undefined;
  return locateNonJson(value);
}

/** `true` for JSON up to 64 levels deep, `false` for a value that is not JSON, `undefined` if deeper. */
function isShallowJson(value: unknown, depth: number): boolean | undefined {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (depth > 64) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const verdict = isShallowJson(value[i], depth + 1);
          if (verdict !== true) return verdict;
        }
        return true;
      }
      if (!isPlainObject(value)) return false;
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const verdict = isShallowJson((value as Record<string, unknown>)[keys[i]!], depth + 1);
        if (verdict !== true) return verdict;
      }
      return true;
    }
    default:
      return false;
  }
}

function locateNonJson(value: unknown): NonJsonFinding | undefined {
  interface Frame {
    readonly value: unknown;
    readonly key: string | number | undefined;
    readonly parent: Frame | undefined;
    /** Set on the marker frame that ends a container's visit. */
    readonly exit?: object;
  }
  const ancestors = new Set<object>();
  const stack: Frame[] = [{ value, key: undefined, parent: undefined }];
  const found = (frame: Frame, what: string): NonJsonFinding => {
    const path: (string | number)[] = [];
    for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent) path.push(at.key!);
    return { path: path.reverse(), found: what };
  };
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.exit) {
      ancestors.delete(frame.exit);
      continue;
    }
    const current = frame.value;
    if (current === null || typeof current === "string" || typeof current === "boolean") continue;
    if (typeof current === "number") {
      if (Number.isFinite(current)) continue;
      return found(frame, String(current));
    }
    if (typeof current !== "object") return found(frame, describeValue(current));
    if (ancestors.has(current)) return found(frame, "circular reference");
    const isArray = Array.isArray(current);
    if (!isArray && !isPlainObject(current)) return found(frame, describeValue(current));
    ancestors.add(current);
    stack.push({ value: undefined, key: undefined, parent: undefined, exit: current });
    if (isArray) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: frame });
    } else {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: frame });
      }
    }
  }
  return undefined;
}

interface JsonSchemaDef extends z.core.$ZodCustomDef {
  /** Whether the value itself must be a plain object (ruling 4), not any JSON value (ruling 3). */
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
      params: { expected: "json", found: finding.found, atRoot: finding.path.length === 0 },
    });
  };
  inst._zod.processJSONSchema = (_context, json) => {
    if (def.requireObject) json.type = "object";
  };
});

/**
 * Any JSON value (ruling 3). Anything else is reported at the exact place it stops being JSON. In
 * JSON Schema it is the empty schema, which accepts every JSON document.
 */
// @__NO_SIDE_EFFECTS__
export function jsonValue(): z.ZodMiniCustom<JsonValue, JsonValue> {
  return new ZodMiniJson({
    type: "custom",
    check: "custom",
    fn: () => true,
    requireObject: false,
  }) as z.ZodMiniCustom<JsonValue, JsonValue>;
}

/**
 * Any JSON object, not `null` and not an array (ruling 4): the shape of `annotations` and
 * `preconditions`, which the spec does not show. In JSON Schema: `{ "type": "object" }`.
 */
// @__NO_SIDE_EFFECTS__
export function jsonObject(): z.ZodMiniCustom<JsonObject, JsonObject> {
  return new ZodMiniJson({
    type: "custom",
    check: "custom",
    fn: () => true,
    requireObject: true,
  }) as z.ZodMiniCustom<JsonObject, JsonObject>;
}
