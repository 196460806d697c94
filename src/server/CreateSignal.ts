/** What a create signal needs of the closing handler: its signal, and where creates under way are kept. */
interface ShutdownCreates {
  readonly signal: AbortSignal;
  readonly creates: Set<CreateSignal>;
}

/**
 * The signal of one create, aborted when the handler closes or the claim is lost. Its
 * `AbortController` is made only when `create` reads `signal` (most never do, and making one costs
 * as much as a good part of the request); only then does the handler need to find it on close, so
 * only then is it registered.
 */
export class CreateSignal {
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;
  #done = false;

  constructor(private readonly shutdown: ShutdownCreates) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (!this.#aborted && this.shutdown.signal.aborted) this.abort(this.shutdown.signal.reason);
      if (this.#aborted) this.#controller.abort(this.#reason);
      else if (!this.#done) this.shutdown.creates.add(this);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  done(): void {
    this.#done = true;
    if (this.#controller !== undefined) this.shutdown.creates.delete(this);
  }
}
