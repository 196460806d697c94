/**
 * The names the OpenTelemetry instrumentation records: the semantic conventions' own where one
 * exists (HTTP server and client spans), the library's own under one prefix, `messaging_events.`,
 * everywhere else. docs/observability.md prints these tables; keep them in step.
 */

/** The instrumentation scope: the name tracers and meters are asked for. */
export const SCOPE = "messaging-events";

/** Span names that are the library's own (HTTP spans are named by their method, as the conventions say). */
export const SPAN = {
  createEvent: "messaging_events.create_event",
  storeCall: "messaging_events.idempotency_store",
  dispatch: "messaging_events.dispatch",
  receive: "messaging_events.webhook.receive",
  verify: "messaging_events.webhook.verify",
} as const;

/** The library's own attributes. */
export const ATTRIBUTE = {
  eventType: "messaging_events.event.type",
  eventId: "messaging_events.event.id",
  idempotencyOutcome: "messaging_events.idempotency.outcome",
  idempotencyKeySent: "messaging_events.idempotency_key.sent",
  errorStage: "messaging_events.error.stage",
  storeOperation: "messaging_events.idempotency_store.operation",
  attemptNumber: "messaging_events.attempt.number",
  attemptCount: "messaging_events.attempt.count",
  attemptOutcome: "messaging_events.attempt.outcome",
  retryDelayMs: "messaging_events.retry.delay_ms",
  retryAfterMs: "messaging_events.retry.retry_after_ms",
  deliveryId: "messaging_events.delivery.id",
  deliveryCount: "messaging_events.delivery.count",
  endpointId: "messaging_events.endpoint.id",
  disabledReason: "messaging_events.endpoint.disabled_reason",
  statusClass: "messaging_events.http.status_class",
  queueState: "messaging_events.queue.state",
  webhookOutcome: "messaging_events.webhook.outcome",
} as const;

/** The span event of a client's retry. */
export const RETRY_EVENT = "messaging_events.retry";

/** The dispatcher's metrics. */
export const METRIC = {
  attempts: "messaging_events.webhook.attempts",
  attemptDuration: "messaging_events.webhook.attempt.duration",
  deadDeliveries: "messaging_events.webhook.dead_deliveries",
  disabledEndpoints: "messaging_events.webhook.disabled_endpoints",
  queueDepth: "messaging_events.webhook.queue.depth",
} as const;

/** The semantic conventions' attributes used here. */
export const SEMCONV = {
  method: "http.request.method",
  methodOriginal: "http.request.method_original",
  status: "http.response.status_code",
  resendCount: "http.request.resend_count",
  route: "http.route",
  urlFull: "url.full",
  urlPath: "url.path",
  urlScheme: "url.scheme",
  serverAddress: "server.address",
  serverPort: "server.port",
  errorType: "error.type",
} as const;

/**
 * The bucket boundaries of the attempt duration histogram, in seconds: the conventions' advice for
 * HTTP durations, and the dispatcher's default time-out (15 s).
 */
export const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 15,
];
