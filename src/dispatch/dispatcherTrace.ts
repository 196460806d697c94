import type { WebhookDispatcherTelemetry } from "./WebhookDispatcherTelemetry.js";

/** The telemetry of one dispatcher, as its `telemetry` option's `startDispatcher` gives it. */
export type DispatcherTrace = ReturnType<WebhookDispatcherTelemetry["startDispatcher"]>;

/** The trace of one attempt, as the dispatcher's telemetry gives it. */
export type AttemptTrace = ReturnType<DispatcherTrace["startAttempt"]>;

/** The trace of one `dispatch`, as the dispatcher's telemetry gives it. */
export type DispatchTrace = ReturnType<DispatcherTrace["startDispatch"]>;
