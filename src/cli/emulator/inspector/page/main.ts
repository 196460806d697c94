/**
 * The inspector's page: the emulator's requests and webhook deliveries, live from its event stream,
 * in a virtual list (only the rows in view are elements), with the details of the selected one, the
 * "Send an event" form, and the actions. Every value is set as text: nothing a client or a receiver
 * sent is ever parsed as HTML (the page's policy enforces it with Trusted Types).
 */
import { createInspectorHistory, type InspectorHistory } from "../createInspectorHistory.js";
import {
  INSPECTOR_PATH,
  type InspectorLimits,
  type InspectorMessage,
  type InspectorRecord,
} from "../InspectorRecord.js";
import { byId, el, replaceChildren } from "./dom.js";
import { act, createFilterControls } from "./filterControls.js";
import { clock, size, statusClass } from "./format.js";
import { matchesFilter, NO_FILTER, type RecordFilter, searchText, statusOf, typeOf } from "./recordFilter.js";
import { renderDetails } from "./renderDetails.js";
import { createSendForm, type SentEvent } from "./sendForm.js";
import { createVirtualList } from "./virtualList.js";

const ROW_HEIGHT = 30;

// The state: every record, kept as the emulator keeps them (the same limits, the same code), and
// the ids of those the filter lets through, oldest first.
let history: InspectorHistory = createInspectorHistory({
  historySize: Number.POSITIVE_INFINITY,
  historyBytes: Number.POSITIVE_INFINITY,
  bodyBytes: 0,
  attempts: 0,
});
let visible: string[] = [];
const visibleSet = new Set<string>();
let limits: InspectorLimits | undefined;
let filter: RecordFilter = NO_FILTER;
let selected: string | undefined;
/** After a send: the event whose request to select when its record arrives. */
let selectWhenSeen: string | undefined;
const searchCache = new WeakMap<InspectorRecord, string>();
const shownCurl = new Map<string, string>();
const text = (record: InspectorRecord) => {
  let found = searchCache.get(record);
  if (found === undefined) {
    found = searchText(record);
    searchCache.set(record, found);
  }
  return found;
};
const passes = (record: InspectorRecord) => matchesFilter(record, filter, text);

// Changes since the last frame: drawn once per frame however many arrive.
let dirty = { all: false, added: [] as string[], changed: new Set<string>() };
let frame = false;

// --- The page's layout ---------------------------------------------------------------------------

const live = el("span", { className: "live", attrs: { id: "live" }, text: "connecting…" });
const { typeFilter, statusFilter, textFilter } = createFilterControls();
const counts = el("span", { className: "counts", attrs: { id: "counts" } });
const details = el("section", { className: "details", attrs: { id: "details", "aria-live": "polite" } });
const sendPanel = el("aside", { className: "send-panel", attrs: { id: "send-panel" } });
sendPanel.hidden = true;
const toggleSend = el("button", {
  text: "Send an event",
  attrs: { type: "button", id: "toggle-send", "aria-controls": "send-panel", "aria-expanded": "false" },
});

const createRow = () =>
  el(
    "div",
    { className: "row", attrs: { role: "option" } },
    el("span", { className: "c-time" }),
    el("span", { className: "c-what" }),
    el("span", { className: "c-status" }),
    el("span", { className: "c-type" }),
    el("span", { className: "c-ref" }),
  );

/** The record shown at row `index` of the list: the newest first. */
const recordAt = (index: number): InspectorRecord | undefined =>
  history.get(visible[visible.length - 1 - index]!);

const deliveryStatus = (record: InspectorRecord & { kind: "delivery" }) => {
  const attempts = record.omittedAttempts + record.attempts.length;
  return `${record.state} · ${attempts} attempt${attempts === 1 ? "" : "s"}`;
};

const list = createVirtualList({
  rowHeight: ROW_HEIGHT,
  createRow,
  render(row, index) {
    const record = recordAt(index);
    if (record === undefined) return;
    const [time, what, status, type, ref] = row.children as unknown as HTMLElement[];
    row.dataset.id = record.id;
    row.dataset.kind = record.kind;
    row.classList.toggle("selected", record.id === selected);
    row.setAttribute("aria-selected", String(record.id === selected));
    time!.textContent = clock(record.at);
    type!.textContent = typeOf(record) ?? "";
    if (record.kind === "request") {
      what!.textContent = `${record.method} ${record.path}${record.source === "inspector" ? " (form)" : ""}`;
      status!.textContent = `${record.status}${record.replayed ? " replayed" : ""}`;
      status!.className = `c-status ${statusClass(record.status)}`;
      ref!.textContent = record.eventId ?? record.idempotencyKey ?? "";
    } else {
      what!.textContent = `webhook → ${record.endpointId}`;
      status!.textContent = deliveryStatus(record);
      status!.className = `c-status ${record.state === "dead" ? "fail" : record.state === "delivered" ? "ok" : statusOf(record) === undefined ? "" : "warn"}`;
      ref!.textContent = record.deliveryId;
    }
  },
});

const detailsContext = {
  origin: location.origin,
  select: (id: string) => select(id, true),
  requestOf: (eventId: string) => {
    const records = history.records();
    for (let index = records.length - 1; index >= 0; index--) {
      const record = records[index];
      if (record?.kind === "request" && record.eventId === eventId && !record.replayed) return record.id;
    }
    return undefined;
  },
  async redeliver(deliveryId: string) {
    const answer = await act("redeliver", { deliveryId });
    const error = (answer.body as { error?: unknown }).error;
    return {
      status: answer.status,
      message:
        answer.status === 202
          ? "A new attempt is queued."
          : `Not redelivered: ${String(error ?? answer.status)}`,
    };
  },
  shownCurl,
  redraw: () => drawDetails(),
};

function drawDetails(): void {
  const record = selected === undefined ? undefined : history.get(selected);
  const scroll = details.scrollTop;
  if (record === undefined) {
    replaceChildren(
      details,
      el("p", {
        className: "hint",
        text: "Select a request or a delivery to see its documents, attempts and actions.",
      }),
    );
    return;
  }
  replaceChildren(details, ...renderDetails(record, detailsContext));
  details.scrollTop = scroll;
}

function select(id: string, reveal: boolean): void {
  selected = id;
  const index = visible.indexOf(id);
  if (reveal && index >= 0) list.reveal(visible.length - 1 - index);
  list.update(visible.length);
  drawDetails();
}

function drawCounts(): void {
  const kept =
    limits === undefined
      ? ""
      : ` · the history keeps the newest ${limits.historySize} (${size(limits.historyBytes)} at most); documents over ${size(limits.bodyBytes)} are cut`;
  counts.textContent = `${visible.length} of ${history.size()} shown${kept}`;
}

/** Draws what changed since the last frame. */
function draw(): void {
  frame = false;
  const { all, added, changed } = dirty;
  dirty = { all: false, added: [], changed: new Set() };
  let recompute = all;
  if (!recompute) {
    for (const id of changed) {
      const record = history.get(id);
      if (record !== undefined && passes(record) !== visibleSet.has(id)) recompute = true;
    }
  }
  if (recompute) {
    visible = history
      .records()
      .filter(passes)
      .map((record) => record.id);
    visibleSet.clear();
    for (const id of visible) visibleSet.add(id);
  } else {
    for (const id of added) {
      const record = history.get(id);
      // Gone already (it fell out before this frame), or listed already (it came twice).
      if (record !== undefined && !visibleSet.has(id) && passes(record)) {
        visible.push(id);
        visibleSet.add(id);
      }
    }
  }
  list.update(visible.length);
  drawCounts();
  if (selectWhenSeen !== undefined) {
    const id = detailsContext.requestOf(selectWhenSeen);
    if (id !== undefined) {
      selectWhenSeen = undefined;
      select(id, true);
      return;
    }
  }
  if (selected !== undefined && (changed.has(selected) || all)) drawDetails();
}

function schedule(): void {
  if (frame) return;
  frame = true;
  requestAnimationFrame(draw);
}

/** Whether a listed record fell out of the history (as it fell out of the emulator's) since the last message. */
let dropped = false;

function receive(message: InspectorMessage): void {
  if (message.type === "snapshot") {
    limits = message.limits;
    // The snapshot already fits the limits: nothing falls out while it is put back.
    history = createInspectorHistory(limits);
    for (const record of message.records) history.put(record);
    history.onEvict((record) => {
      dropped = visibleSet.delete(record.id) || dropped;
    });
    dirty.all = true;
    schedule();
    return;
  }
  const { record } = message;
  if (history.get(record.id) === undefined) dirty.added.push(record.id);
  else dirty.changed.add(record.id);
  history.put(record);
  if (dropped) {
    dropped = false;
    visible = visible.filter((id) => visibleSet.has(id));
  }
  schedule();
}

function connect(): void {
  const source = new EventSource(`${INSPECTOR_PATH}/stream`);
  let first = true;
  source.addEventListener("open", () => {
    live.textContent = "● live";
    live.className = "live on";
  });
  source.addEventListener("error", () => {
    live.textContent = "reconnecting…";
    live.className = "live off";
  });
  source.addEventListener("message", (event) => {
    const message = JSON.parse((event as MessageEvent<string>).data) as InspectorMessage;
    receive(message);
    if (first && message.type === "snapshot") {
      first = false;
      // Marks for the benchmark: the snapshot drawn, then painted.
      requestAnimationFrame(() => {
        performance.mark("inspector-drawn");
        document.body.dataset.ready = "true";
        requestAnimationFrame(() => performance.mark("inspector-painted"));
      });
    }
  });
}

function readFilter(): void {
  filter = {
    type: typeFilter.value,
    status: statusFilter.value as RecordFilter["status"],
    text: textFilter.value.trim(),
  };
  dirty.all = true;
  schedule();
}

function start(): void {
  const form = createSendForm({
    examples: async () => {
      const response = await fetch(`${INSPECTOR_PATH}/api/examples`);
      return ((await response.json()) as { examples: Record<string, unknown> }).examples;
    },
    async send(input) {
      const answer = await act("send", input);
      if (answer.status !== 200)
        throw new Error((answer.body as { error?: string }).error ?? String(answer.status));
      return answer.body as SentEvent;
    },
    onSent(sent: SentEvent) {
      try {
        const id = (JSON.parse(sent.body.text) as { data?: { id?: unknown } }).data?.id;
        if (typeof id === "string") {
          selectWhenSeen = id;
          schedule();
        }
      } catch {
        // An answer without an event: nothing to select.
      }
    },
  });
  sendPanel.append(form);
  toggleSend.addEventListener("click", () => {
    sendPanel.hidden = !sendPanel.hidden;
    toggleSend.setAttribute("aria-expanded", String(!sendPanel.hidden));
    if (!sendPanel.hidden) byId("send-type").focus();
  });
  for (const control of [typeFilter, statusFilter]) control.addEventListener("change", readFilter);
  textFilter.addEventListener("input", readFilter);
  list.element.addEventListener("click", (event) => {
    const row = (event.target as Element).closest<HTMLElement>(".row");
    if (row?.dataset.id !== undefined) select(row.dataset.id, false);
  });
  list.element.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const at = selected === undefined ? -1 : visible.length - 1 - visible.indexOf(selected);
    const next = Math.min(visible.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)));
    const record = recordAt(next);
    if (record !== undefined) select(record.id, true);
  });

  document.body.append(
    el(
      "header",
      { className: "top" },
      el("h1", {}, "messaging-events ", el("span", { className: "sub", text: "emulator inspector" })),
      live,
      el("span", { className: "spacer" }),
      toggleSend,
    ),
    el("div", { className: "filters" }, typeFilter, statusFilter, textFilter, counts),
    el(
      "main",
      { className: "panes" },
      el(
        "section",
        { className: "list-pane", attrs: { "aria-label": "Requests and deliveries, newest first" } },
        el(
          "div",
          { className: "row head", attrs: { "aria-hidden": "true" } },
          ...["Time", "What", "Status", "Type", "Id"].map((name) => el("span", { text: name })),
        ),
        list.element,
      ),
      details,
      sendPanel,
    ),
  );
  drawDetails();
  drawCounts();
  connect();
}

start();
