/** A code as errors carry them: `ECONNREFUSED`, `ERR_EVENTS_API`, `ERR_IDEMPOTENCY_STORE_UNAVAILABLE`. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** A class name: `TypeError`, `AbortError`. */
const NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/**
 * A short, low-cardinality name for why an operation failed, for `error.type` and the hooks: the
 * error's own code (`ERR_EVENTS_API`), else its cause's (`ECONNREFUSED` under Node's `fetch failed`),
 * `"timeout"` for a time-out, else its class name, else `"_OTHER"`. Never a message, which may hold
 * a URL or whatever a peer answered.
 */
export function errorTypeOf(error: unknown): string {
  try {
    const { code, cause, name } = (error ?? {}) as {
      code?: unknown;
      cause?: { code?: unknown };
      name?: unknown;
    };
    if (typeof code === "string" && CODE.test(code)) return code;
    const causeCode = cause?.code;
    if (typeof causeCode === "string" && CODE.test(causeCode)) return causeCode;
    if (name === "TimeoutError" || name === "TimedOut") return "timeout";
    if (typeof name === "string" && NAME.test(name)) return name;
  } catch {
    // A getter that throws: nothing can be said.
  }
  return "_OTHER";
}
