import type { AttemptRecord, DeliveryRecord, RequestRecord } from "../InspectorRecord.js";

/** The environment variable a copied command reads the `Authorization` value from: it is never shown. */
export const AUTHORIZATION_VARIABLE = "MESSAGING_EVENTS_AUTHORIZATION";

/** A word for a POSIX shell, single-quoted; NUL (which no argument can hold) becomes U+FFFD. */
export function shellQuote(text: string): string {
  return `'${text.replace(/\0/g, "\ufffd").replace(/'/g, "'\\''")}'`;
}

/** The headers a copied request repeats (the others are curl's own or the browser's). */
const REPEATED = new Set(["content-type", "accept", "service-idempotency-key"]);

/**
 * The request as a curl command, to send it again: its method, URL, headers and document. The
 * `Authorization` value is never in it: the command reads it from `$MESSAGING_EVENTS_AUTHORIZATION`.
 */
export function requestCurl(record: RequestRecord, origin: string): string {
  // A method is a token; one with anything but letters is quoted so that it cannot reach the shell.
  const method = /^[A-Z]{1,20}$/.test(record.method) ? record.method : shellQuote(record.method);
  const lines = [`curl -i -X ${method} ${shellQuote(`${origin}${record.path}`)}`];
  for (const [name, value] of record.headers) {
    if (name === "authorization") lines.push(`-H "Authorization: $${AUTHORIZATION_VARIABLE}"`);
    else if (REPEATED.has(name)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (record.request.text !== "") lines.push(`--data-raw ${shellQuote(record.request.text)}`);
  const notes = [
    ...(record.headers.some(([name]) => name === "authorization")
      ? [`# Set ${AUTHORIZATION_VARIABLE} to your Authorization value first: the inspector never shows it.`]
      : []),
    ...(record.request.cut ? ["# The document was cut by the inspector: this sends only its start."] : []),
  ];
  return [...notes, lines.join(" \\\n  ")].join("\n");
}

/**
 * One attempt of a delivery as a curl command: the same body, `service-webhook-id`,
 * `service-timestamp` and `service-signature` as were sent (a receiver that keeps delivery ids
 * answers it as a repeat). The signing secret is never in it.
 */
export function attemptCurl(record: DeliveryRecord, attempt: AttemptRecord): string {
  const lines = [
    `curl -i -X POST ${shellQuote(record.url)}`,
    `-H ${shellQuote("content-type: application/json")}`,
  ];
  lines.push(`-H ${shellQuote(`service-webhook-id: ${record.deliveryId}`)}`);
  if (attempt.timestamp !== "") lines.push(`-H ${shellQuote(`service-timestamp: ${attempt.timestamp}`)}`);
  if (attempt.signature !== "") lines.push(`-H ${shellQuote(`service-signature: ${attempt.signature}`)}`);
  lines.push(`--data-raw ${shellQuote(record.body.text)}`);
  const notes = [
    ...(record.body.cut ? ["# The payload was cut by the inspector: this sends only its start."] : []),
    ...(attempt.signature === ""
      ? ["# The signature of this attempt is not known: sign with messaging-events sign."]
      : []),
  ];
  return [...notes, lines.join(" \\\n  ")].join("\n");
}
