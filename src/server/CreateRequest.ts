import type { EventDocument } from "../jsonapi/eventDocumentSchema.js";
import type { CreateSignal } from "./CreateSignal.js";
import type { CreateEventRequest } from "./EventsHandlerOptions.js";

/**
 * What `create` is given. A class, not an object literal with a getter: a literal with an accessor
 * is built on a slow path that costs more than the rest of the call, and `signal` must stay lazy.
 */
export class CreateRequest implements CreateEventRequest {
  readonly #abort: CreateSignal;

  constructor(
    readonly event: CreateEventRequest["event"],
    readonly document: EventDocument,
    readonly principal: string,
    readonly idempotencyKey: string | undefined,
    abort: CreateSignal,
  ) {
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}
