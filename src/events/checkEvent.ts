import { type Run, unknownMembers, valueIssue } from "../internal/compiledRuntime.js";
import type { Checker } from "./runCompiled.js";

/**
 * @internal Validates an event object `{ type, content }` whose type is `type`, the content with
 * `content` (its generated validator), as the Zod event schema does: the type, then the content, then
 * members other than these two. Returns the copy.
 */
export function checkEvent(x: Record<string, unknown>, r: Run, type: string, content: Checker): unknown {
  const t = x.type;
  if (t !== type) valueIssue(r, "type", t, [type]);
  r.path.push("content");
  const c = content(x.content, r);
  r.path.pop();
  let unknown: string[] | undefined;
  for (const key in x) {
    r.nodes--;
    if (key !== "type" && key !== "content") {
      if (unknown === undefined) unknown = [key];
      else unknown.push(key);
    }
  }
  if (unknown !== undefined) unknownMembers(r, x, unknown);
  return { type: t, content: c };
}
