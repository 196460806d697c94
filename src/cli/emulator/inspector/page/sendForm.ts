import { eventTypes } from "../../../../events/eventTypes.js";
import { safeParseEventContent } from "../../../../events/safeParseEventContent.js";
import type { KeptText } from "../InspectorRecord.js";
import { el, replaceChildren } from "./dom.js";
import { pretty, statusClass, statusText } from "./format.js";

/** What the emulator answered to a sent event. */
export interface SentEvent {
  readonly status: number;
  readonly body: KeptText;
}

export interface SendFormOptions {
  /** The shipped example content of each type. */
  readonly examples: () => Promise<Readonly<Record<string, unknown>>>;
  /** Sends one event through the emulator. */
  readonly send: (input: { type: string; content: unknown; roomId?: string }) => Promise<SentEvent>;
  /** Told of each answer (to select the created event's record). */
  readonly onSent: (sent: SentEvent) => void;
}

type FieldKind = "string" | "number" | "boolean" | "json";

interface Field {
  /** The content member, or `""` for the whole content (as JSON). */
  readonly key: string;
  readonly kind: FieldKind;
  readonly input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  readonly error: HTMLElement;
  readonly wrapper: HTMLElement;
}

const kindOf = (value: unknown): FieldKind =>
  typeof value === "string"
    ? "string"
    : typeof value === "number"
      ? "number"
      : typeof value === "boolean"
        ? "boolean"
        : "json";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The "Send an event" form: a type, a room, and the content's fields, started from the package's
 * example of the type. Each change is checked by the library's own validator
 * (`safeParseEventContent`, the code that ships to browsers); its messages appear under the field
 * they name, and nothing is sent while any is shown.
 */
export function createSendForm(options: SendFormOptions): HTMLElement {
  const typeSelect = el(
    "select",
    { attrs: { id: "send-type", name: "type" } },
    ...eventTypes.map((type) => el("option", { text: type, attrs: { value: type } })),
  );
  typeSelect.value = "s.message.text";
  const room = el("input", {
    attrs: { id: "send-room", name: "room", placeholder: "room-42 (optional)", autocomplete: "off" },
  });
  const asJson = el("input", { attrs: { id: "send-as-json", type: "checkbox" } });
  const fieldset = el("fieldset", { className: "send-fields", attrs: { id: "send-fields" } });
  const formError = el("div", { className: "field-error", attrs: { id: "send-form-error", role: "alert" } });
  const note = el("p", { className: "hint", attrs: { id: "send-example-note" } });
  const result = el("div", { className: "send-result", attrs: { id: "send-result", "aria-live": "polite" } });
  const submit = el("button", { text: "Send", attrs: { type: "submit", id: "send-submit" } });
  let fields: Field[] = [];
  let examples: Readonly<Record<string, unknown>> = {};

  const makeField = (key: string, value: unknown, index: number): Field => {
    const kind = key === "" ? "json" : kindOf(value);
    const id = `send-field-${index}`;
    const error = el("div", { className: "field-error", attrs: { id: `${id}-error`, role: "alert" } });
    let input: Field["input"];
    if (kind === "boolean") {
      input = el(
        "select",
        {},
        el("option", { text: "true", attrs: { value: "true" } }),
        el("option", { text: "false", attrs: { value: "false" } }),
      );
      input.value = String(value);
    } else if (kind === "json") {
      input = el("textarea", { attrs: { rows: key === "" ? "10" : "3", spellcheck: "false" } });
      input.value = JSON.stringify(value, null, 2) ?? "";
    } else {
      input = el("input", { attrs: { autocomplete: "off", spellcheck: "false" } });
      input.value = String(value);
    }
    input.id = id;
    input.setAttribute("aria-describedby", error.id);
    input.addEventListener("input", check);
    const label = key === "" ? "content (JSON)" : kind === "json" ? `${key} (JSON)` : key;
    const wrapper = el(
      "div",
      { className: "field", attrs: { "data-field": key } },
      el("label", { text: label, attrs: { for: id } }),
      input,
      error,
    );
    return { key, kind, input, error, wrapper };
  };

  /** The content the fields hold, and the fields whose text is not JSON. */
  const read = (): { content: unknown; unreadable: Map<Field, string> } => {
    const unreadable = new Map<Field, string>();
    const fieldValue = (field: Field): unknown => {
      const text = field.input.value;
      if (field.kind === "string") return text;
      if (field.kind === "boolean") return text === "true";
      if (field.kind === "number") {
        // Not a number: sent as the text it is, and the validator says what it expected.
        const number = Number(text);
        return text.trim() !== "" && Number.isFinite(number) ? number : text;
      }
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        unreadable.set(field, `not JSON: ${(error as Error).message}`);
        return undefined;
      }
    };
    const whole = fields.find((field) => field.key === "");
    if (whole !== undefined) return { content: fieldValue(whole), unreadable };
    const content: Record<string, unknown> = {};
    for (const field of fields) content[field.key] = fieldValue(field);
    return { content, unreadable };
  };

  /** Checks the content with the library; shows each message under its field. Whether it is valid. */
  function check(): boolean {
    const { content, unreadable } = read();
    const messages = new Map<Field, string[]>();
    const rest: string[] = [];
    for (const [field, message] of unreadable) messages.set(field, [message]);
    if (unreadable.size === 0) {
      const parsed = safeParseEventContent(typeSelect.value, content);
      if (!parsed.success) {
        const whole = fields.find((field) => field.key === "");
        for (const issue of parsed.error.issues) {
          const key = issue.path[1];
          const field =
            whole ??
            (typeof key === "string" ? fields.find((candidate) => candidate.key === key) : undefined);
          if (field === undefined) rest.push(issue.message);
          else messages.set(field, [...(messages.get(field) ?? []), issue.message]);
        }
      }
    }
    for (const field of fields) {
      const shown = messages.get(field);
      field.error.textContent = shown?.join("\n") ?? "";
      field.wrapper.classList.toggle("invalid", shown !== undefined);
      if (shown === undefined) field.input.removeAttribute("aria-invalid");
      else field.input.setAttribute("aria-invalid", "true");
    }
    formError.textContent = rest.join("\n");
    return messages.size === 0 && rest.length === 0;
  }

  const fill = (content: unknown) => {
    fields =
      asJson.checked || !isObject(content)
        ? [makeField("", content, 0)]
        : Object.entries(content).map(([key, value], index) => makeField(key, value, index));
    replaceChildren(
      fieldset,
      el("legend", { text: "Content" }),
      ...(fields.length === 0
        ? [el("p", { className: "hint", text: "This type has no content members: {}." })]
        : []),
      ...fields.map((field) => field.wrapper),
    );
    check();
  };

  const startFromExample = () => {
    const type = typeSelect.value;
    const example = examples[type];
    note.textContent =
      example === undefined
        ? `No example of ${type} ships with the package: start from {}.`
        : `Starts from the package's example (messaging-events/examples/events/${type}.json).`;
    fill(example ?? {});
  };

  typeSelect.addEventListener("change", startFromExample);
  asJson.addEventListener("change", () => {
    const { content, unreadable } = read();
    if (unreadable.size > 0) {
      asJson.checked = !asJson.checked;
      return;
    }
    fill(content);
  });

  const form = el(
    "form",
    { className: "send-form", attrs: { id: "send-form", novalidate: "" } },
    el("h2", { text: "Send an event" }),
    el("div", { className: "field" }, el("label", { text: "Type", attrs: { for: "send-type" } }), typeSelect),
    note,
    el(
      "div",
      { className: "field" },
      el("label", { text: "Room (relationships.room)", attrs: { for: "send-room" } }),
      room,
    ),
    el("label", { className: "inline" }, asJson, " Edit the whole content as JSON"),
    fieldset,
    formError,
    el("div", { className: "actions" }, submit),
    result,
  );

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!check()) {
      result.replaceChildren();
      const first = fields.find((field) => field.wrapper.classList.contains("invalid"));
      first?.input.focus();
      return;
    }
    const { content } = read();
    submit.disabled = true;
    replaceChildren(result, el("p", { className: "hint", text: "Sending…" }));
    const roomId = room.value.trim();
    options
      .send({ type: typeSelect.value, content, ...(roomId === "" ? {} : { roomId }) })
      .then((sent) => {
        replaceChildren(
          result,
          el("p", { className: `status ${statusClass(sent.status)}`, text: statusText(sent.status) }),
          el("pre", { className: "doc", text: pretty(sent.body) }),
        );
        options.onSent(sent);
      })
      .catch((error: unknown) => {
        replaceChildren(result, el("p", { className: "status fail", text: `Not sent: ${String(error)}` }));
      })
      .finally(() => {
        submit.disabled = false;
      });
  });

  options
    .examples()
    .catch(() => ({}))
    .then((loaded) => {
      examples = loaded;
      startFromExample();
    });
  return form;
}
