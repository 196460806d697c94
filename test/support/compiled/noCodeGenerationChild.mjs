/**
 * Run by test/properties/noCodeGeneration.test.ts as
 * `node --disallow-code-generation-from-strings`, with an IPC channel (advanced serialization).
 * Before the built package is imported, `eval` and every function constructor are wrapped so that
 * each attempt to build code from a string is recorded (with its stack) and then refused as the
 * flag refuses it. The parent sends `{ contents, events }`; the child answers with its own
 * checks, the conformance table's verdicts, the results for the values it was sent, the runtime
 * conformance suite's results, and the attempts recorded in each phase.
 */

// biome-ignore lint/security/noGlobalEval: the point of this script is to see eval refused and trapped.
const realEval = globalThis.eval;
const RealFunction = Function;
const attempts = [];
let phase = "import";

function refused(build) {
  try {
    build();
    return false;
  } catch (error) {
    return error instanceof EvalError;
  }
}
const flag = {
  execArgv: process.execArgv,
  evalRefused: refused(() => realEval("1 + 1")),
  functionRefused: refused(() => new RealFunction("return 1")),
};

function record(kind) {
  attempts.push({ phase, kind, stack: String(new Error(kind).stack) });
}

/** Replaces a function constructor everywhere code can reach it: the global and `.constructor`. */
function trap(Real, name) {
  function Trapped(...args) {
    record(name);
    return Reflect.construct(Real, args, new.target ?? Real);
  }
  Object.defineProperty(Trapped, "prototype", { value: Real.prototype });
  Object.defineProperty(Real.prototype, "constructor", {
    value: Trapped,
    writable: true,
    configurable: true,
  });
  return Trapped;
}
globalThis.Function = trap(RealFunction, "Function");
trap(Object.getPrototypeOf(async () => {}).constructor, "AsyncFunction");
trap(Object.getPrototypeOf(function* () {}).constructor, "GeneratorFunction");
trap(Object.getPrototypeOf(async function* () {}).constructor, "AsyncGeneratorFunction");
globalThis.eval = function evalTrap(code) {
  record("eval");
  return realEval(code);
};

// The traps must see what they are meant to see, or the check on them would prove nothing.
phase = "self-check";
for (const build of [
  () => new Function("return 1"),
  () => (() => {}).constructor("return 1"),
  () => (async () => {}).constructor("return 1"),
  () => function* () {}.constructor("return 1"),
  // biome-ignore lint/security/noGlobalEval: an indirect eval, which the trap must see.
  () => globalThis.eval("1"),
]) {
  refused(build);
}
phase = "import";

const events = await import("messaging-events/events");
const { default: cases } = await import("../../runtimes/cases.json", { with: { type: "json" } });

/** A result as plain data, for the parent to compare. */
function plain(result) {
  if (result.success) return { success: true, data: result.data };
  const { error } = result;
  return {
    success: false,
    isError: error instanceof events.EventValidationError,
    code: error.code,
    eventType: error.eventType,
    message: error.message,
    omittedIssues: error.omittedIssues,
    issues: error.issues.map(({ code, path, pointer, message, params }) => ({
      code,
      path,
      pointer,
      message,
      params,
    })),
  };
}

process.once("message", async ({ contents, events: wholeEvents }) => {
  phase = "content";
  const table = cases.map((row) => {
    const result = events.safeParseEventContent(row.type, row.content);
    const event = events.safeParseEvent({ type: row.type, content: row.content });
    return {
      name: `${row.type}: ${row.name}`,
      valid: row.valid,
      expect: row.expect,
      content: plain(result),
      event: plain(event),
    };
  });
  const contentResults = contents.map(({ type, content }) =>
    plain(events.safeParseEventContent(type, content)),
  );
  const eventResults = wholeEvents.map((event) => plain(events.safeParseEvent(event)));
  phase = "conformance";
  const { runConformance } = await import("../../runtimes/conformance.js");
  const conformance = await runConformance();
  process.send({ flag, table, contentResults, eventResults, conformance, attempts }, () =>
    process.disconnect(),
  );
});
process.send({ ready: true });
