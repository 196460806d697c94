/** What a deadline needs of the closing handler: where deadlines under way are kept. */
interface ShutdownDeadlines {
  readonly deadlines: Set<CreateDeadline>;
}

/**
 * The wait for one `create`: it ends when `create` settles, when `createTimeoutMs` passes, or when a
 * close runs out of time. Its timer is set only when `create` does not settle within a few
 * microtasks (most creates that do not wait on I/O never need one).
 */
export class CreateDeadline {
  readonly #shutdown: ShutdownDeadlines;
  #expire: ((why: "timeout" | "closed") => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(shutdown: ShutdownDeadlines) {
    this.#shutdown = shutdown;
  }

  /** What `run` settles to, or why it was given up. */
  async race<T>(
    run: Promise<T>,
    timeoutMs: number,
  ): Promise<{ done: true; value: T } | { done: false; why: "timeout" | "closed" }> {
    let settled = false;
    const done = run.then((value) => {
      settled = true;
      return { done: true as const, value };
    });
    for (let tick = 0; tick < 6 && !settled; tick++) await null;
    if (settled) return await done;
    const expired = new Promise<{ done: false; why: "timeout" | "closed" }>((resolve) => {
      this.#expire = (why) => resolve({ done: false, why });
    });
    this.#timer = setTimeout(() => this.expire("timeout"), timeoutMs);
    this.#shutdown.deadlines.add(this);
    try {
      return await Promise.race([done, expired]);
    } finally {
      clearTimeout(this.#timer);
      this.#shutdown.deadlines.delete(this);
    }
  }

  expire(why: "timeout" | "closed"): void {
    this.#expire?.(why);
  }
}
