/**
 * A command line the program cannot act on: an unknown flag, a missing value, a value out of range.
 * The program prints its message (with a hint when one helps) and exits with status 2.
 */
export class UsageError extends Error {
  /** Always `ERR_USAGE`. */
  readonly code = "ERR_USAGE";

  /**
   * @param message - What is wrong, for a person.
   * @param hint - What to type instead, if something is likely.
   */
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** Exit statuses: the check passed, the check failed, the command line was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
