import type { DeliveryRecord, InspectorRecord, KeptText, RequestRecord } from "../InspectorRecord.js";
import { attemptCurl, requestCurl } from "./curlCommand.js";
import { type Child, el } from "./dom.js";
import { clock, clockAhead, cutNote, pretty, statusClass, statusText } from "./format.js";

export interface DetailsContext {
  /** `http://host:port`, for copied commands. */
  readonly origin: string;
  /** Selects another record: a delivery by its record id, a request by its event id. */
  readonly select: (recordId: string) => void;
  /** The record id of the request that created an event, if it is in the history. */
  readonly requestOf: (eventId: string) => string | undefined;
  /** Asks the emulator for a new attempt of a delivery. */
  readonly redeliver: (deliveryId: string) => Promise<{ status: number; message: string }>;
  /** The copied command shown, by what it copies (kept across updates of the record). */
  readonly shownCurl: Map<string, string>;
  /** Draws the details again (after a command is shown). */
  readonly redraw: () => void;
}

/** A definition list of the rows whose value is known. */
function facts(rows: readonly (readonly [string, Child])[]): HTMLElement {
  const list = el("dl", { className: "facts" });
  for (const [name, value] of rows) {
    if (value === undefined || value === "" || value === false || value === null) continue;
    list.append(el("dt", { text: name }), el("dd", {}, value));
  }
  return list;
}

/** A document under a heading: pretty JSON, or its text, and a note when it was cut. */
function documentBlock(title: string, kept: KeptText): HTMLElement {
  const note = cutNote(kept);
  return el(
    "section",
    { className: "block" },
    el("h3", { text: title }),
    note === undefined ? undefined : el("p", { className: "cut-note", text: note }),
    kept.text === ""
      ? el("p", { className: "hint", text: "(empty)" })
      : el("pre", { className: "doc", text: pretty(kept) }),
  );
}

/** A "Copy as curl" button; pressed, it shows the command (and copies it where the browser lets it). */
function curlButton(key: string, command: () => string, context: DetailsContext): HTMLElement {
  const shown = context.shownCurl.get(key);
  return el(
    "div",
    { className: "curl" },
    el("button", {
      text: "Copy as curl",
      attrs: { type: "button", "data-curl": key },
      on: {
        click: () => {
          const text = command();
          context.shownCurl.set(key, text);
          navigator.clipboard?.writeText(text).catch(() => undefined);
          context.redraw();
        },
      },
    }),
    shown === undefined ? undefined : el("pre", { className: "doc curl-command", text: shown }),
  );
}

function requestDetails(record: RequestRecord, context: DetailsContext): Child[] {
  return [
    el(
      "h2",
      {},
      `${record.method} ${record.path} `,
      el("span", { className: `status ${statusClass(record.status)}`, text: statusText(record.status) }),
    ),
    facts([
      ["Time", clock(record.at)],
      ["Duration", `${record.durationMs} ms`],
      ["Idempotency key", record.idempotencyKey],
      ["Replayed", record.replayed ? "yes: the stored answer to the first request with this key" : "no"],
      ["Event type", record.eventType],
      ["Event id", record.eventId],
      ["Sent by", record.source === "inspector" ? "the inspector's form" : "a client"],
    ]),
    record.errors.length === 0
      ? undefined
      : el(
          "section",
          { className: "block" },
          el("h3", { text: "Errors" }),
          el(
            "table",
            { className: "errors" },
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                ...["Status", "Code", "Pointer", "Detail"].map((name) => el("th", { text: name })),
              ),
            ),
            el(
              "tbody",
              {},
              ...record.errors.map((error) =>
                el(
                  "tr",
                  {},
                  el("td", { text: error.status }),
                  el("td", { className: "mono", text: error.code }),
                  el("td", { className: "mono", text: error.pointer }),
                  el("td", { text: error.detail || error.title }),
                ),
              ),
            ),
          ),
        ),
    record.deliveries.length === 0
      ? undefined
      : el(
          "section",
          { className: "block" },
          el("h3", { text: "Webhook deliveries" }),
          el(
            "ul",
            { className: "links" },
            ...record.deliveries.map((delivery) =>
              el(
                "li",
                {},
                el("button", {
                  className: "link",
                  text: `${delivery.endpointId} · ${delivery.id}`,
                  attrs: { type: "button", "data-delivery": delivery.id },
                  on: { click: () => context.select(`d:${delivery.id}`) },
                }),
              ),
            ),
          ),
        ),
    el(
      "section",
      { className: "block" },
      el("h3", { text: "Request headers" }),
      el("pre", {
        className: "doc",
        text: record.headers.map(([name, value]) => `${name}: ${value}`).join("\n"),
      }),
    ),
    documentBlock("Request document", record.request),
    documentBlock("Response document", record.response),
    curlButton(record.id, () => requestCurl(record, context.origin), context),
  ];
}

const stateText: Readonly<Record<DeliveryRecord["state"], string>> = {
  queued: "queued",
  retrying: "waiting to retry",
  delivered: "delivered",
  dead: "dead: no more retries",
};

function deliveryDetails(record: DeliveryRecord, context: DetailsContext): Child[] {
  const request = record.eventId === undefined ? undefined : context.requestOf(record.eventId);
  const status = el("p", {
    className: "action-status",
    attrs: { id: "redeliver-status", "aria-live": "polite" },
  });
  const waiting = record.state === "queued" || record.state === "retrying";
  const redeliver = el("button", {
    text: "Redeliver",
    attrs: { type: "button", id: "redeliver" },
    on: {
      click: () => {
        redeliver.disabled = true;
        status.textContent = "Asking for a new attempt…";
        context
          .redeliver(record.deliveryId)
          .then(({ message }) => {
            status.textContent = message;
          })
          .catch((error: unknown) => {
            status.textContent = `Not redelivered: ${String(error)}`;
          });
      },
    },
  });
  redeliver.disabled = waiting || !record.redeliverable;
  redeliver.title = !record.redeliverable
    ? "The payload is no longer held"
    : waiting
      ? "It is already waiting for its next attempt"
      : "A new attempt, signed afresh, with the same service-webhook-id";
  return [
    el(
      "h2",
      {},
      `webhook ${record.type} → ${record.endpointId} `,
      el("span", { className: `state ${record.state}`, text: stateText[record.state] }),
    ),
    facts([
      ["Queued", clock(record.at)],
      ["Endpoint", `${record.endpointId}: ${record.url}`],
      ["service-webhook-id", el("span", { className: "mono", text: record.deliveryId })],
      [
        "Event",
        record.eventId === undefined
          ? undefined
          : request === undefined
            ? record.eventId
            : el("button", {
                className: "link",
                text: record.eventId,
                attrs: { type: "button" },
                on: { click: () => context.select(request) },
              }),
      ],
      ["Next attempt", record.nextRetryAt === undefined ? undefined : clockAhead(record.nextRetryAt)],
      ["Why it died", record.deadReason],
    ]),
    el("div", { className: "actions" }, redeliver, status),
    el(
      "section",
      { className: "block" },
      el("h3", {
        text: `Attempts (${record.omittedAttempts + record.attempts.length})${record.omittedAttempts > 0 ? `: the first ${record.omittedAttempts} are no longer kept` : ""}`,
      }),
      record.attempts.length === 0
        ? el("p", { className: "hint", text: "None yet." })
        : el(
            "ol",
            { className: "attempts", attrs: { id: "attempts" } },
            ...record.attempts.map((attempt) =>
              el(
                "li",
                {
                  className: `attempt ${attempt.outcome}`,
                  attrs: { "data-attempt": String(attempt.number) },
                },
                el(
                  "div",
                  { className: "attempt-head" },
                  el("strong", { text: `#${attempt.number}` }),
                  ` ${clock(attempt.at)} `,
                  el("span", {
                    className: `status ${statusClass(attempt.status)}`,
                    text: attempt.status === undefined ? "no answer" : statusText(attempt.status),
                  }),
                  ` ${attempt.durationMs} ms · ${attempt.outcome === "retry" ? "will retry" : attempt.outcome}`,
                  attempt.redelivery ? " · redelivered" : "",
                ),
                facts([
                  ["service-timestamp", attempt.timestamp],
                  ["service-signature", el("span", { className: "mono wrap", text: attempt.signature })],
                  ["Why it failed", attempt.reason],
                  ["Retry at", attempt.retryAt === undefined ? undefined : clockAhead(attempt.retryAt)],
                ]),
                attempt.response === undefined || attempt.response === ""
                  ? undefined
                  : el(
                      "div",
                      {},
                      el("p", { className: "hint", text: "The answer's first bytes:" }),
                      el("pre", { className: "doc", text: attempt.response }),
                    ),
                curlButton(`${record.id}#${attempt.number}`, () => attemptCurl(record, attempt), context),
              ),
            ),
          ),
    ),
    documentBlock("Payload", record.body),
  ];
}

/** The details of a record, every value as text. */
export function renderDetails(record: InspectorRecord, context: DetailsContext): Child[] {
  return record.kind === "request" ? requestDetails(record, context) : deliveryDetails(record, context);
}
