import { callHook } from "../internal/callHook.js";
import type { EventsHandlerErrorStage, EventsHandlerOptions } from "./EventsHandlerOptions.js";
import type { EventsHandlerTelemetry } from "./EventsHandlerTelemetry.js";

/** One request's trace, as the handler's telemetry gives it. */
export type RequestTrace = ReturnType<EventsHandlerTelemetry["startEventsRequest"]>;

/**
 * Where the handler puts a hook that reports a failure found outside it: `createNodeListener`
 * reports a body already consumed through it.
 */
export const REPORT_ERROR: unique symbol = Symbol("messaging-events.reportError");

/** The `onError` reporter of one handler, as attached under {@link REPORT_ERROR}. */
export type ReportError = (
  request: Request,
  stage: EventsHandlerErrorStage,
  error: unknown,
  status: number,
) => void;

/**
 * What one request knows to tell `onError`: who sent it and its key, filled in as they are learnt;
 * its trace, if any, learns the stage of each failure. Reporting never throws and never waits: what
 * the hook throws or rejects with is dropped.
 */
export class RequestErrors {
  principal: string | undefined = undefined;
  idempotencyKey: string | undefined = undefined;

  constructor(
    private readonly onError: EventsHandlerOptions["onError"],
    private readonly request: Request,
    readonly trace?: RequestTrace,
  ) {}

  /** Reports a failure at `stage`; `status` is what the client was answered, if it was decided by it. */
  report(stage: EventsHandlerErrorStage, error: unknown, status: number | undefined): void {
    const { onError } = this;
    this.trace?.record({ errorStage: stage });
    if (onError === undefined) return;
    const { request, principal, idempotencyKey } = this;
    callHook(onError, error, { stage, request, principal, idempotencyKey, status });
  }
}
