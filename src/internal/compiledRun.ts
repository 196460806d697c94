import { indexedLength } from "./findLimitBreach.js";
import type { Issue } from "./issue.js";
import type { Limits } from "./limits.js";

// The run of a generated validator (src/events/compiledValidators.ts, through compiledRuntime.ts):
// its state, and the counting of what it leaves unread against the limits.

/** A segment of a path: a member's name or an entry's index. */
export type Key = string | number;

/**
 * The state of one validation by the generated code. (Its members are set in the constructor, not
 * by field initializers: one object shape, built without a call per field.)
 */
export class Run {
  /** The issues kept, once there is one. */
  declare issues: Issue[] | undefined;
  /** Issues raised past `maxIssues`, only counted. */
  declare omitted: number;
  /** Issues raised, kept or not. */
  declare count: number;
  /** Issues raised that stop a schema's own checks (as Zod's do: all but a few). */
  declare aborts: number;
  /** Values that may still be visited before the node limit: counted generously, never short. */
  declare nodes: number;
  /** The path length at which a container breaks the depth limit. */
  declare readonly depthLimit: number;
  declare readonly maxNodes: number;
  declare readonly maxIssues: number;
  /** A limit may be broken: the exact walk (`findLimitBreach`) decides. */
  declare suspect: boolean;
  /**
   * An issue left a container unread (an object where a string belongs, the value of an unknown
   * member…): the limits may be broken there, and only the exact walk can tell.
   */
  declare unvisited: boolean;
  /** The limit that cut a JSON member's walk short, leaving the run incomplete. */
  declare stopped: "too_deep" | "too_many_nodes" | undefined;
  /** Where a JSON member stopped being JSON, innermost first, and what was found there. */
  declare notJsonPath: Key[] | undefined;
  declare notJson: string;
  /** The path of the value being checked: a stack the validators push to and pop, owned by the run. */
  declare readonly path: Key[];

  /**
   * A run under `limits` for a value at `path` (a stack the validators push to and pop, owned by the
   * run), whose first `base` segments are outside the value.
   */
  constructor(path: Key[], base: number, limits: Limits) {
    this.path = path;
    this.issues = undefined;
    this.omitted = 0;
    this.count = 0;
    this.aborts = 0;
    this.nodes = limits.maxNodes - 1;
    this.depthLimit = base + limits.maxDepth;
    this.maxNodes = limits.maxNodes;
    this.maxIssues = limits.maxIssues;
    this.suspect = false;
    this.unvisited = false;
    this.stopped = undefined;
    this.notJsonPath = undefined;
    this.notJson = "";
  }
}

/**
 * Counts the members of a container that validation leaves unread (an object where a string
 * belongs, the value of an unknown member…), at `key` below the run's path, as the run counts the
 * ones it reads: so that a run that read or counted everything within the limits needs no exact
 * walk of the whole value. Where the count reaches a limit, or reading throws, the exact walk
 * decides. Cost: at most the node limit.
 */
export function unread(r: Run, value: object, key: Key | undefined): void {
  try {
    if (!fits(r, value, r.path.length + (key === undefined ? 0 : 1))) r.suspect = true;
  } catch {
    r.unvisited = true;
  }
}

/**
 * A value that validation leaves unread (an object of an unknown variant, the further members of
 * an object after an issue stopped their checks), at `key` below the run's path: counted as `unread`
 * counts.
 */
export function unreadValue(r: Run, value: unknown, key: Key | undefined): void {
  if (typeof value === "object" && value !== null) unread(r, value, key);
}

/** Counts a container at path length `depth` and everything in it; `false` once past a limit. */
function fits(r: Run, value: object, depth: number): boolean {
  if (depth >= r.depthLimit) return false;
  if (Array.isArray(value)) {
    const length = value.length;
    r.nodes -= length;
    if (r.nodes < 0) return false;
    for (let i = 0; i < length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null && !fits(r, item, depth + 1)) return false;
    }
    return true;
  }
  if (indexedLength(value) > r.nodes) return false;
  for (const key in value) {
    if (--r.nodes < 0) return false;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && !fits(r, item, depth + 1)) return false;
  }
  return true;
}
