import type * as z from "zod/mini";
import { omittedCount } from "./boundedArray.js";
import { codePointLength } from "./codePointLength.js";
import { convertCustom } from "./convertCustom.js";
import {
  describeFound,
  describeValue,
  expectedList,
  expectedText,
  kindsOf,
  listAlternatives,
  oneOf as oneOfParams,
  pathLabel,
  quote,
  safeText,
  withArticle,
} from "./describe.js";
import { type Expected, type Issue, type Literal, makeIssue } from "./issue.js";
import { IssueCollector } from "./issueCollector.js";

type Path = readonly (string | number)[];

/** An expected kind as a message writes it, the kinds only Zod's own types give included. */
function kindText(kind: string): string {
  return kind === "integer" ? "an integer" : expectedText(kind);
}

/** The kind an issue expects, from the name of a Zod type: `int` is an integer, a record an object. */
function kindOf(zodType: string): Expected {
  switch (zodType) {
    case "int":
      return "integer";
    case "record":
      return "object";
    case "tuple":
      return "array";
    default:
      return zodType;
  }
}

function toPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
}

const make = makeIssue;

export { IssueCollector };

/** Where Zod's issues are: the value that was parsed, and where it sits in the event. */
interface Origin {
  /** The value that was parsed. */
  readonly root: unknown;
  /** Its path in the event (`["content"]` for content). */
  readonly prefix: Path;
}

/**
 * The value at `path` inside `root`, as the parse saw it. Zod leaves the input out of its issues
 * unless asked (`reportInput`), and asking makes every parse, valid or not, several times slower;
 * the paths lead back to the same values.
 */
function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  try {
    for (const segment of path) {
      if (typeof value !== "object" || value === null) return undefined;
      value = (value as Record<string | number, unknown>)[segment];
    }
  } catch {
    return undefined;
  }
  return value;
}

/**
 * Turns Zod issues into the library's own issues: a stable code, a path from the root of the event,
 * a JSON pointer and an English message written here (never Zod's, which depend on its locale
 * configuration). `root` is the value that was parsed and `prefix` its path in the event.
 */
export function toEventIssues(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: Path,
  out: IssueCollector,
): void {
  for (const issue of issues) convert(issue, [], { root, prefix }, out);
}

/** How many of the library's issues a Zod issue becomes, counted without building any. */
function countOf(issue: z.core.$ZodIssue): number {
  const omitted = omittedCount(issue);
  if (omitted !== undefined) return omitted;
  if (issue.code === "unrecognized_keys") return issue.keys.length;
  return 1;
}

function convert(issue: z.core.$ZodIssue, base: Path, origin: Origin, out: IssueCollector): void {
  if (out.full) {
    out.omitted += countOf(issue);
    return;
  }
  const omitted = omittedCount(issue);
  if (omitted !== undefined) {
    out.omitted += omitted;
    return;
  }
  const relative = [...base, ...toPath(issue.path)];
  const path = [...origin.prefix, ...relative];
  const label = pathLabel(path);
  const input = valueAt(origin.root, relative);
  switch (issue.code) {
    case "invalid_type": {
      const expected = kindOf(issue.expected);
      if (input === undefined)
        out.push(
          make("required", path, `${label} is required: expected ${kindText(expected)}`, {
            expected: [expected],
          }),
        );
      else {
        const received = describeValue(input);
        out.push(
          make("invalid_type", path, `${label} must be ${kindText(expected)}, not ${withArticle(received)}`, {
            expected,
            received,
          }),
        );
      }
      return;
    }
    case "too_big": {
      const maximum = Number(issue.maximum);
      if (issue.origin === "string") {
        const length = typeof input === "string" ? codePointLength(input) : undefined;
        out.push(
          make(
            "too_long",
            path,
            `${label} must be at most ${maximum} ${plural(maximum, "character")} long${length === undefined ? "" : `, not ${length}`}`,
            length === undefined ? { maximum } : { maximum, length },
          ),
        );
      } else {
        out.push(entryCount("too_many_items", issue.exact === true, maximum, input, path));
      }
      return;
    }
    case "too_small": {
      const minimum = Number(issue.minimum);
      if (issue.origin === "string") {
        out.push(
          make(
            "too_short",
            path,
            minimum === 1
              ? `${label} must not be empty`
              : `${label} must be at least ${minimum} ${plural(minimum, "character")} long`,
            { minimum },
          ),
        );
      } else {
        out.push(entryCount("too_few_items", issue.exact === true, minimum, input, path));
      }
      return;
    }
    case "invalid_value":
      out.push(oneOf(path, label, issue.values as Literal[], input));
      return;
    case "invalid_format":
      out.push(
        make(
          "invalid_format",
          path,
          issue.format === "date-time"
            ? `${label} must be an RFC 3339 date-time with an offset, such as "2026-11-22T18:00:00Z", not ${describeFound(input)}`
            : `${label} must be a valid ${issue.format}, not ${describeFound(input)}`,
          typeof input === "string"
            ? { format: issue.format, received: "string", value: safeText(input) }
            : { format: issue.format, received: describeValue(input) },
        ),
      );
      return;
    case "unrecognized_keys":
      for (let i = 0; i < issue.keys.length; i++) {
        if (out.full) {
          out.omitted += issue.keys.length - i;
          return;
        }
        const key = issue.keys[i]!;
        const keyPath = [...path, key];
        out.push(
          make("unknown_property", keyPath, `${pathLabel(keyPath)} is not allowed here (unknown property)`, {
            key: safeText(key),
          }),
        );
      }
      return;
    case "invalid_union":
      convertUnion(issue, relative, origin, out);
      return;
    case "custom":
      convertCustom(issue, path, out, input);
      return;
    default:
      out.push(make("invalid_value", path, `${label} is invalid`, { rule: "other" }));
  }
}

/** A value outside an enumeration (`values`), or missing where one is required. */
function oneOf(path: Path, label: string, values: readonly Literal[], input: unknown): Issue {
  const alternatives = listAlternatives(values.map(showPrimitive));
  if (input === undefined)
    return make("required", path, `${label} is required: expected ${alternatives}`, {
      expected: kindsOf(values),
      values: [...values],
    });
  return make(
    "invalid_value",
    path,
    `${label} must be ${alternatives}, not ${describeFound(input)}`,
    oneOfParams([...values], input),
  );
}

function convertUnion(
  issue: z.core.$ZodIssueInvalidUnion,
  relative: Path,
  origin: Origin,
  out: IssueCollector,
): void {
  const path = [...origin.prefix, ...relative];
  const label = pathLabel(path);
  const input = valueAt(origin.root, relative);
  if (issue.discriminator !== undefined) {
    // No variant has this tag; the issue's path already ends with the discriminator.
    const options = (issue as { options?: readonly Literal[] }).options ?? [];
    out.push(oneOf(path, label, options, input));
    return;
  }
  // The alternative that got past its type check is the one the author meant: report its problems.
  // (An array's count of the issues past the limit sits at its root, but stands for issues inside it.)
  const inside = issue.errors.filter(
    (branch) =>
      branch.length > 0 &&
      branch.every((inner) => inner.path.length > 0 || omittedCount(inner) !== undefined) &&
      branch.some((inner) => omittedCount(inner) === undefined),
  );
  if (inside.length === 1) {
    for (const inner of inside[0]!) convert(inner, relative, origin, out);
    return;
  }
  const expected = [
    ...new Set(
      issue.errors.flatMap((branch) =>
        branch.flatMap((inner) =>
          inner.code === "invalid_type" && inner.path.length === 0 ? [kindOf(inner.expected)] : [],
        ),
      ),
    ),
  ];
  if (input === undefined) {
    out.push(
      make("required", path, `${label} is required: expected ${expectedList(expected, kindText)}`, {
        expected,
      }),
    );
  } else {
    const received = describeValue(input);
    out.push(
      make(
        "no_matching_variant",
        path,
        `${label} must be ${expectedList(expected, kindText)}, not ${withArticle(received)}`,
        { expected, received },
      ),
    );
  }
}

/** "content.options must have at least 1 entry, not 0". */
function entryCount(
  code: "too_many_items" | "too_few_items",
  exact: boolean,
  limit: number,
  input: unknown,
  path: Path,
): Issue {
  const bound = exact ? "exactly" : code === "too_many_items" ? "at most" : "at least";
  const found = Array.isArray(input) ? `, not ${input.length}` : "";
  const message = `${pathLabel(path)} must have ${bound} ${limit} ${plural(limit, "entry")}${found}`;
  const length = Array.isArray(input) ? { length: input.length } : {};
  return code === "too_many_items"
    ? make(code, path, message, { maximum: limit, exact, ...length })
    : make(code, path, message, { minimum: limit, exact, ...length });
}

function plural(count: number, noun: string): string {
  if (count === 1) return noun;
  return noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}

function showPrimitive(value: unknown): string {
  return typeof value === "string" ? quote(value) : String(value);
}
