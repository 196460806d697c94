import { pathLabel, quote } from "./describe.js";
import { type Issue, makeIssue } from "./issue.js";
import type { Limits } from "./limits.js";

type Path = (string | number)[];

/** Where a value breaks a limit, or could not be read at all. */
export type LimitBreach =
  | { readonly code: "too_deep" | "too_many_nodes" | "circular"; readonly path: Path }
  | { readonly code: "unreadable"; readonly path: Path; readonly cause: unknown };

/**
 * Walks a value before it is validated and reports the first place where it nests deeper than
 * `maxDepth` or where more than `maxNodes` values have been visited (a shared reference counts each
 * time it is reached, so a small graph of shared objects cannot cost exponential time later). A
 * getter or proxy that throws is reported as unreadable, and a cycle, which nests without end, as
 * such. The whole value is over the node limit, so that breach is reported at its root. Cost: at
 * most `maxNodes` steps.
 */
export function findLimitBreach(value: unknown, limits: Limits): LimitBreach | undefined {
  const walk: Walk = { nodes: limits.maxNodes, maxDepth: limits.maxDepth, ancestors: [], path: [] };
  try {
    visit(value, 0, walk);
    return undefined;
  } catch (caught) {
    // The walk itself is thrown at a breach, so that nothing the value throws can pass for one.
    if (caught === walk) {
      const code = walk.code!;
      return { code, path: code === "too_many_nodes" ? [] : walk.path.reverse().slice(0, walk.cut) };
    }
    return { code: "unreadable", path: [], cause: caught };
  }
}

/**
 * Whether {@link findLimitBreach} finds a breach, without saying where: the same walk, for a
 * verdict alone (a guard's), in a fraction of the code; where the value cannot be read, it throws
 * what reading threw (an unreadable value is no more valid than a breach). A test holds the two to
 * the same answer.
 */
export function exceedsLimits(value: unknown, limits: Limits): boolean {
  let nodes = limits.maxNodes;
  const visit = (node: unknown, depth: number): boolean => {
    if (--nodes < 0) return true;
    if (typeof node !== "object" || node === null) return false;
    if (depth >= limits.maxDepth) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (visit(node[i], depth + 1)) return true;
      return false;
    }
    if (indexedLength(node) > nodes) return true;
    for (const key in node) if (visit((node as Record<string, unknown>)[key], depth + 1)) return true;
    return false;
  };
  return visit(value, 0);
}

interface Walk {
  nodes: number;
  readonly maxDepth: number;
  /** The containers from the root to the current one. */
  readonly ancestors: object[];
  /** The limit broken, once one is. */
  code?: "too_deep" | "too_many_nodes" | "circular";
  /** Where the breach is, from it to the root. */
  readonly path: Path;
  /** For a cycle: the depth where it closes, where the path is cut. */
  cut?: number;
}

/** `walk`, recording that `code` is broken, to be thrown. */
function breach(walk: Walk, code: Walk["code"], cut?: number): Walk {
  walk.code = code;
  walk.cut = cut;
  return walk;
}

function visit(value: unknown, depth: number, walk: Walk): void {
  if (--walk.nodes < 0) throw breach(walk, "too_many_nodes");
  if (typeof value !== "object" || value === null) return;
  const ancestors = walk.ancestors;
  ancestors.push(value);
  if (depth >= walk.maxDepth) {
    // Only now are the ancestors searched for a repeat, so ordinary values never pay for it.
    const seen = new Set<object>();
    for (let i = 0; i <= depth; i++) {
      if (seen.has(ancestors[i]!)) throw breach(walk, "circular", i);
      seen.add(ancestors[i]!);
    }
    throw breach(walk, "too_deep");
  }
  if (Array.isArray(value)) {
    // A sparse array's length costs nothing to claim: each index counts, so the budget ends it.
    for (let i = 0; i < value.length; i++) {
      try {
        visit(value[i], depth + 1, walk);
      } catch (caught) {
        if (caught === walk) walk.path.push(i);
        throw caught;
      }
    }
  } else {
    // A typed array or a String object lists one member per index: past the budget, it is over the
    // limit before one is listed (listing them all first could take seconds).
    if (indexedLength(value) > walk.nodes) throw breach(walk, "too_many_nodes");
    // Members inherited through a prototype too: validation reads them, so they count.
    for (const key in value) {
      try {
        visit((value as Record<string, unknown>)[key], depth + 1, walk);
      } catch (caught) {
        if (caught === walk) walk.path.push(key);
        throw caught;
      }
    }
  }
  ancestors.pop();
}

/**
 * What a thrown value is, in words that may be repeated in an issue (and so in an answer to a
 * client): an error's name (`TypeError`), never its message, which could carry anything the code
 * that threw knew (a token, a connection string).
 */
export function reasonOf(caught: unknown): string {
  try {
    const name: unknown = caught instanceof Error ? caught.name : undefined;
    if (typeof name === "string" && /^[A-Za-z_$][\w$]{0,39}$/.test(name)) return name;
    return typeof caught === "string" ? "a string thrown" : "an exception";
  } catch {
    return "an exception";
  }
}

/** The issue that reports `breach`, found in the value at `prefix`. */
export function breachIssue(
  breach: LimitBreach,
  prefix: readonly (string | number)[],
  limits: Limits,
): Issue {
  const path = [...prefix, ...breach.path];
  const label = pathLabel(path);
  const code = breach.code;
  if (code === "unreadable") return unreadableIssue(path, breach.cause);
  if (code === "circular")
    return makeIssue(
      "not_json",
      path,
      `${label} must be a JSON value (a string, a finite number, a boolean, null, an array or a plain object), not a circular reference`,
      { received: "circular" },
    );
  const maximum = code === "too_deep" ? limits.maxDepth : limits.maxNodes;
  return code === "too_deep"
    ? makeIssue(code, path, `${label} nests deeper than the limit of ${maximum} levels`, { maximum })
    : makeIssue(code, path, `${label} holds more than the limit of ${maximum} values`, { maximum });
}

/** The issue for a value at `path` that threw when read (`cause`: what it threw). */
export function unreadableIssue(path: readonly (string | number)[], cause: unknown): Issue {
  const reason = reasonOf(cause);
  return makeIssue("unreadable", path, `${pathLabel(path)} could not be read: ${quote(reason)}`, { reason });
}

/** How many indexed members `for…in` lists for a typed array or a String object (0 for others). */
export function indexedLength(value: object): number {
  if (ArrayBuffer.isView(value)) {
    // A DataView has no length and lists no members.
    const length: unknown = (value as { length?: unknown }).length;
    return typeof length === "number" ? length : 0;
  }
  return value instanceof String ? value.length : 0;
}
