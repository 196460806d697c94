/**
 * The inspector page's controls that stand alone: the filters above the list (event type, status,
 * text) and the call that posts an action to the emulator.
 */
import { eventTypes } from "../../../../events/eventTypes.js";
import { webhookEventTypes } from "../../../../webhooks/webhookEventTypes.js";
import { ACTION_HEADER, INSPECTOR_PATH } from "../InspectorRecord.js";
import { el } from "./dom.js";

/** Posts an action to the emulator, with the header that proves it comes from this page. */
export async function act(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${INSPECTOR_PATH}/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", [ACTION_HEADER]: "1" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

/** The three filters, as elements: every event type and webhook type, the statuses, free text. */
export function createFilterControls(): {
  readonly typeFilter: HTMLSelectElement;
  readonly statusFilter: HTMLSelectElement;
  readonly textFilter: HTMLInputElement;
} {
  const typeFilter = el(
    "select",
    { attrs: { id: "filter-type", "aria-label": "Event type" } },
    el("option", { text: "every type", attrs: { value: "" } }),
    ...[...new Set([...eventTypes, ...webhookEventTypes])]
      .sort()
      .map((type) => el("option", { text: type, attrs: { value: type } })),
  );
  const statusFilter = el(
    "select",
    { attrs: { id: "filter-status", "aria-label": "Status" } },
    ...(
      [
        ["", "every status"],
        ["2xx", "2xx"],
        ["4xx", "4xx"],
        ["5xx", "5xx"],
        ["replayed", "replayed requests"],
        ["queued", "deliveries queued"],
        ["retrying", "deliveries retrying"],
        ["delivered", "deliveries delivered"],
        ["dead", "deliveries dead"],
      ] as const
    ).map(([value, label]) => el("option", { text: label, attrs: { value } })),
  );
  const textFilter = el("input", {
    attrs: {
      id: "filter-text",
      type: "search",
      placeholder: "Find an id, a key, a value…",
      "aria-label": "Text",
    },
  });
  return { typeFilter, statusFilter, textFilter };
}
