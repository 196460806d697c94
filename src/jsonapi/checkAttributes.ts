import { contentCheckers } from "../events/compiledValidators.js";
import { eventTypes } from "../events/eventTypes.js";
import { isEventType } from "../events/isEventType.js";
import {
  enter,
  isObject,
  jsonCopy,
  put,
  type Run,
  ruleIssue,
  skipProto,
  typeIssue,
  unknownVariant,
  unreadValue,
} from "../internal/compiledRuntime.js";
import {
  DEFAULT_EVENT_ATTRIBUTE_NAMES,
  type EventAttributeNames,
  isJsonApiFieldName,
} from "./eventAttributeNames.js";
import { checkJsonApiMember } from "./jsonApiRules.js";

// The parts of the generated document validators (compiledDocuments.ts) written by hand: the
// attributes, whose names the caller chooses, and the JSON:API rules of a member.

/** The attribute names of the validation under way (see `withAttributeNames`). */
let names: EventAttributeNames = DEFAULT_EVENT_ATTRIBUTE_NAMES;

/**
 * @internal Runs `work` (a validation by the generated document validators) with the attributes
 * named `current`. Restored afterwards, so that a getter that starts a validation of its own, with
 * other names, in the middle of one changes nothing for it.
 */
export function withAttributeNames<T>(current: EventAttributeNames, work: () => T): T {
  const previous = names;
  names = current;
  try {
    return work();
  } finally {
    names = previous;
  }
}

/**
 * @internal Validates the attributes of an event resource as the Zod schema does (a union on the
 * type attribute; each option a loose object whose further members are JSON with JSON:API field
 * names), under the attribute names of the validation under way. Returns the copy.
 */
export function checkAttributes(x: unknown, r: Run): unknown {
  if (!isObject(x)) {
    typeIssue(r, undefined, x, "object");
    return undefined;
  }
  const { eventType: typeKey, content: contentKey } = names;
  const t = x[typeKey];
  if (!isEventType(t)) {
    unknownVariant(r, x, typeKey, t, eventTypes);
    return undefined;
  }
  // The option of that type: the type (which matched), the content, then the further members.
  if (!enter(r, x)) return undefined;
  const a = r.aborts;
  r.path.push(contentKey);
  const content = contentCheckers[t](x[contentKey], r);
  r.path.pop();
  let extras: string[] | undefined;
  for (const k in x) {
    r.nodes--;
    if (k !== typeKey && k !== contentKey) {
      if (k === "__proto__") skipProto(r, x);
      else if (extras === undefined) extras = [k];
      else extras.push(k);
    }
  }
  const o: Record<string, unknown> = { [typeKey]: t, [contentKey]: content };
  if (extras === undefined) return o;
  for (const k of extras) put(o, k, x[k]);
  if (r.aborts !== a) {
    // An issue before stops the checks of the further members, left unread.
    for (const k of extras) unreadValue(r, o[k], k);
    return o;
  }
  for (const k of extras) put(o, k, jsonCopy(r, o[k], k, false));
  if (r.aborts === a) {
    for (const k of extras) {
      if (!isJsonApiFieldName(k)) ruleIssue(r, [k], "invalid_value", FIELD_NAME, { rule: "field_name" });
    }
  }
  return o;
}

const FIELD_NAME =
  'is not a name JSON:API allows for a field: use ASCII letters and digits, "-" and "_" inside (not first or last), and not type, id, links or relationships';

/**
 * @internal Raises the issues of what JSON:API requires of a member (`kind`) whose JSON is already
 * checked, found at `key` below the run's path.
 */
export function jsonApiIssues(
  r: Run,
  key: string,
  kind: "links" | "relationships" | "jsonapi",
  value: Record<string, unknown>,
): void {
  checkJsonApiMember(kind, value, (path, code, text, params) =>
    ruleIssue(r, [key, ...path], code, text, params),
  );
}
