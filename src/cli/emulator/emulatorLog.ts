import type { DeliveryAttempt } from "../../dispatch/index.js";
import { quote } from "../../internal/describe.js";

/** The counts behind `serve`'s summary line, as the emulator adds to them while it runs. */
export interface EmulatorCounts {
  requests: number;
  created: number;
  replayed: number;
  refused: number;
  failed: number;
  attempts: number;
  delivered: number;
  dead: number;
}

/** Counts that start at zero. */
export function emptyCounts(): EmulatorCounts {
  return {
    requests: 0,
    created: 0,
    replayed: 0,
    refused: 0,
    failed: 0,
    attempts: 0,
    delivered: 0,
    dead: 0,
  };
}

/** The time of day that starts each log line: `HH:MM:SS.mmm`, UTC. */
export const time = () => new Date().toISOString().slice(11, 23);

/** A value from a request, as a log shows it: plain when it is short visible ASCII, quoted otherwise. */
export const shown = (value: string, limit = 60) =>
  /^[!#-~]+$/.test(value) && value.length <= limit ? value : quote(value, limit);

/** What a log line shows of a created event, read from the response (a small JSON:API document). */
async function createdSummary(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as {
      data?: { id?: unknown; attributes?: Record<string, unknown> };
    };
    const id = body.data?.id;
    const type = body.data?.attributes?.eventType;
    return `${typeof id === "string" ? ` id=${shown(id)}` : ""}${typeof type === "string" ? ` type=${shown(type)}` : ""}`;
  } catch {
    return "";
  }
}

/** The log line of one webhook attempt: its status and outcome, why it failed, the next retry, the delivery. */
export function attemptLine(attempt: DeliveryAttempt): string {
  const status = attempt.status === undefined ? "no answer" : String(attempt.status);
  const next =
    attempt.outcome === "retry" && attempt.retryAt !== undefined
      ? `, retry in ${Math.max(0, Math.round((attempt.retryAt - Date.now()) / 1000))}s`
      : "";
  const why = attempt.reason === undefined ? "" : ` (${quote(attempt.reason, 80)})`;
  return `webhook ${attempt.type} -> ${attempt.endpointId} attempt ${attempt.attempt}: ${status} ${attempt.outcome}${why}${next} ${Math.round(attempt.durationMs)}ms delivery=${attempt.deliveryId}`;
}

/**
 * Wraps the events handler so that each request is counted (a `POST` as created, replayed, refused
 * or failed) and logged in one line: method, path, status, replay, duration, created event, key.
 */
export function logRequests(
  handler: (request: Request) => Promise<Response>,
  counts: EmulatorCounts,
  log: (line: string) => void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = performance.now();
    const response = await handler(request);
    const url = new URL(request.url);
    if (request.method === "POST") {
      counts.requests++;
      if (response.headers.get("idempotent-replayed") === "true") counts.replayed++;
      else if (response.status === 201) counts.created++;
      else if (response.status >= 500) counts.failed++;
      else if (response.status >= 400) counts.refused++;
    }
    const replayed = response.headers.get("idempotent-replayed") === "true" ? " replayed" : "";
    const key = request.headers.get("service-idempotency-key");
    const created = response.status === 201 ? await createdSummary(response) : "";
    log(
      `${time()} ${request.method} ${shown(url.pathname)} ${response.status}${replayed} ${Math.round(performance.now() - started)}ms${created}${key === null ? "" : ` key=${shown(key)}`}`,
    );
    return response;
  };
}
