import type * as z from "zod/mini";
import { describeFound, foundOf, pathLabel, withArticle } from "./describe.js";
import { type IssueCode, type IssueParams, makeIssue } from "./issue.js";
import type { IssueCollector } from "./issueCollector.js";
import { activeLimits } from "./limits.js";

// The issues of the library's own checks in Zod's schemas (Zod's "custom" issues, whose params say
// which check raised them), converted as toEventIssues.ts converts the others.

type Path = readonly (string | number)[];

const make = makeIssue;

/**
 * Turns a custom issue into the library's, pushed to `out`: `path` is its path from the root of the
 * event, `input` the value there.
 */
export function convertCustom(
  issue: z.core.$ZodIssueCustom,
  path: Path,
  out: IssueCollector,
  input: unknown,
): void {
  const label = pathLabel(path);
  const params = issue.params ?? {};
  if (params.expected === "json") {
    const found = String(params.found);
    if (found === "undefined" && params.atRoot === true) {
      out.push(
        make("required", path, `${label} is required: expected any JSON value`, { expected: ["json"] }),
      );
    } else {
      out.push(
        make(
          "not_json",
          path,
          `${label} must be a JSON value (a string, a finite number, a boolean, null, an array or a plain object), not ${withArticle(found)}`,
          { received: found },
        ),
      );
    }
    return;
  }
  if (params.rule === "exactly_one_of") {
    const keys = (params.keys as string[]).join(" or ");
    const present = params.present as string[];
    const problem =
      present.length === 0 ? "it has neither" : `not ${present.length === 2 ? "both" : "several"}`;
    out.push(
      make("exactly_one_of", path, `${label} must have exactly one of ${keys}, ${problem}`, {
        keys: [...(params.keys as string[])],
        present: present.length,
      }),
    );
    return;
  }
  if (params.rule === "too_deep") {
    const maximum = activeLimits().maxDepth;
    out.push(
      make("too_deep", path, `${label} nests deeper than the limit of ${maximum} levels`, { maximum }),
    );
    return;
  }
  if (params.rule === "too_many_nodes") {
    const maximum = activeLimits().maxNodes;
    out.push(
      make("too_many_nodes", path, `${label} holds more than the limit of ${maximum} values`, { maximum }),
    );
    return;
  }
  if (params.rule === "jsonapi") {
    const code = params.code as IssueCode;
    out.push(make(code, path, `${label} ${String(params.text)}`, params.params as IssueParams[typeof code]));
    return;
  }
  if (params.rule === "field_name") {
    out.push(
      make(
        "invalid_value",
        path,
        `${label} is not a name JSON:API allows for a field: use ASCII letters and digits, "-" and "_" inside (not first or last), and not type, id, links or relationships`,
        { rule: "field_name" },
      ),
    );
    return;
  }
  if (params.rule === "errors_with_data") {
    out.push(
      make(
        "unknown_property",
        path,
        `${label} is not allowed: a JSON:API document with data must not have errors`,
        { key: "errors" },
      ),
    );
    return;
  }
  if (params.rule === "idempotency_key") {
    out.push(
      make(
        "invalid_value",
        path,
        `${label} must be 1 to 255 visible ASCII characters other than the comma, not ${describeFound(input)}`,
        { rule: "idempotency_key", ...foundOf(input) },
      ),
    );
    return;
  }
  if (params.rule === "not_blank") {
    out.push(make("invalid_value", path, `${label} must not be blank`, { rule: "not_blank" }));
    return;
  }
  if (params.rule === "boolean_options") {
    const other = params.duplicate === "true" ? "false" : "true";
    out.push(
      make(
        "boolean_options",
        path,
        `${label} must be "${other}": a boolean action needs one option with value "true" and one with value "false"`,
        { missing: other },
      ),
    );
    return;
  }
  out.push(make("invalid_value", path, `${label} is invalid`, { rule: "other" }));
}
