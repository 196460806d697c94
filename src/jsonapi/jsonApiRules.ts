import { describeValue, safeText } from "../internal/describe.js";
import { isPlainObject } from "../internal/isPlainObject.js";
import type { Expected, IssueParams } from "../internal/issue.js";
import { isJsonApiFieldName } from "./eventAttributeNames.js";

/** A path inside the checked member. */
export type Path = (string | number)[];

/** The issue codes of the rules. */
export type RuleCode = "invalid_type" | "invalid_value" | "unknown_property" | "required";

/**
 * Where a rule reports a problem: the path inside the member, an issue code, the words after its
 * label, and the parameters of those words.
 */
export type Report = <C extends RuleCode>(path: Path, code: C, text: string, params: IssueParams[C]) => void;

/** The parameters of a value of the wrong kind. */
const wrongKind = (expected: Expected, value: unknown): IssueParams["invalid_type"] => ({
  expected,
  received: describeValue(value),
});

/** What JSON:API requires of a member whose JSON is already checked, by kind; problems go to `report`. */
export function checkJsonApiMember(
  kind: "links" | "relationships" | "jsonapi",
  value: Record<string, unknown>,
  report: Report,
): void {
  const check =
    kind === "links" ? checkLinks : kind === "relationships" ? checkRelationships : checkJsonApiObject;
  check(value, [], report);
}

function onlyMembers(
  value: Record<string, unknown>,
  allowed: readonly string[],
  path: Path,
  report: Report,
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      report([...path, key], "unknown_property", "is not allowed here (unknown property)", {
        key: safeText(key),
      });
  }
}

function checkMeta(value: unknown, path: Path, report: Report): void {
  if (!isPlainObject(value))
    report(path, "invalid_type", "must be an object (meta)", wrongKind("object", value));
}

/** A links object: each member a URL string or a link object `{ href, meta? }`. */
function checkLinks(value: Record<string, unknown>, path: Path, report: Report): void {
  for (const key of Object.keys(value)) {
    const link = value[key];
    if (typeof link === "string") continue;
    if (!isPlainObject(link)) {
      report(
        [...path, key],
        "invalid_type",
        "must be a link: a URL string or an object with href",
        wrongKind("link", link),
      );
      continue;
    }
    if (typeof link.href !== "string")
      report([...path, key, "href"], "required", "is required: a URL string", { expected: ["url"] });
    if (link.meta !== undefined) checkMeta(link.meta, [...path, key, "meta"], report);
    onlyMembers(link, ["href", "meta"], [...path, key], report);
  }
}

/** A resource identifier: `{ type, id, meta? }`, strings. */
function checkIdentifier(value: unknown, path: Path, report: Report): void {
  if (!isPlainObject(value)) {
    report(
      path,
      "invalid_type",
      "must be a resource identifier object { type, id }",
      wrongKind("resource_identifier", value),
    );
    return;
  }
  for (const member of ["type", "id"]) {
    if (typeof value[member] !== "string")
      report([...path, member], "invalid_type", "must be a string", wrongKind("string", value[member]));
  }
  if (value.meta !== undefined) checkMeta(value.meta, [...path, "meta"], report);
  onlyMembers(value, ["type", "id", "meta"], path, report);
}

/** The relationships object: field names JSON:API allows, each a relationship object. */
function checkRelationships(value: Record<string, unknown>, path: Path, report: Report): void {
  for (const name of Object.keys(value)) {
    const at = [...path, name];
    if (!isJsonApiFieldName(name)) {
      report(
        at,
        "invalid_value",
        'is not a name JSON:API allows for a field: use letters, digits, "-" and "_" inside, not type, id, links or relationships',
        { rule: "field_name" },
      );
      continue;
    }
    const relationship = value[name];
    if (!isPlainObject(relationship)) {
      report(
        at,
        "invalid_type",
        "must be a relationship object with data, links or meta",
        wrongKind("relationship", relationship),
      );
      continue;
    }
    const { data, links, meta } = relationship;
    if (data === undefined && links === undefined && meta === undefined) {
      report(at, "required", "must have data, links or meta (a relationship object)", {
        expected: ["relationship"],
      });
    }
    if (Array.isArray(data)) {
      for (let index = 0; index < data.length; index++)
        checkIdentifier(data[index], [...at, "data", index], report);
    } else if (data !== undefined && data !== null) checkIdentifier(data, [...at, "data"], report);
    if (links !== undefined) {
      if (isPlainObject(links)) checkLinks(links, [...at, "links"], report);
      else report([...at, "links"], "invalid_type", "must be a links object", wrongKind("object", links));
    }
    if (meta !== undefined) checkMeta(meta, [...at, "meta"], report);
    onlyMembers(relationship, ["data", "links", "meta"], at, report);
  }
}

/** The `jsonapi` object: `{ version?, meta? }`. */
function checkJsonApiObject(value: Record<string, unknown>, path: Path, report: Report): void {
  if (value.version !== undefined && typeof value.version !== "string") {
    report([...path, "version"], "invalid_type", "must be a string", wrongKind("string", value.version));
  }
  if (value.meta !== undefined) checkMeta(value.meta, [...path, "meta"], report);
  onlyMembers(value, ["version", "meta"], path, report);
}
