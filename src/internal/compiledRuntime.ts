// What the generated validators (src/events/compiledValidators.ts) call: the state of one
// validation, and the library's issues, each written once, in the same words as the issues
// converted from Zod's (toEventIssues.ts). A test runs both on the same values and compares them.
//
// The generated code imports it all from this module, which re-exports the modules that write it,
// in layers, none importing a later one: the run and its counting (compiledRun.ts), the issues
// (compiledIssues.ts, then compiledCheckIssues.ts), the member readers (compiledMembers.ts), the
// JSON copy (compiledJsonCopy.ts).

export {
  blankIssue,
  booleanOptionsIssue,
  countIssue,
  dateTimeIssue,
  emptyIssue,
  errorsWithDataIssue,
  exactlyOneIssue,
  idempotencyKeyIssue,
  minLengthOf,
  ruleIssue,
  tooLongIssue,
  tooManyNodesIssue,
} from "./compiledCheckIssues.js";
export {
  alternatives,
  typeIssue,
  unknownIssues,
  unknownVariant,
  valueIssue,
  variantIssue,
} from "./compiledIssues.js";
export { jsonCopy } from "./compiledJsonCopy.js";
export {
  bool,
  enter,
  isObject,
  list,
  optStr,
  put,
  skipProto,
  str,
  unknownMembers,
} from "./compiledMembers.js";
export { Run, unreadValue } from "./compiledRun.js";
