import { eventTypes } from "../../../events/eventTypes.js";
import { readContractFile } from "../../readContractFile.js";

/**
 * The content of the example event the package ships for each type
 * (`messaging-events/examples/events/<type>.json`, `{ type, content }`), by type: where the
 * inspector's "Send an event" form starts. A type without an example file is left out (the form then
 * starts from `{}`). The one place the inspector reads examples from.
 */
export async function shippedExamples(): Promise<Record<string, unknown>> {
  const examples: Record<string, unknown> = {};
  await Promise.all(
    eventTypes.map(async (type) => {
      const text = await readContractFile(`examples/events/${type}.json`).catch(() => undefined);
      if (text === undefined) return;
      try {
        const example = JSON.parse(text) as { type?: unknown; content?: unknown };
        if (example.type === type && "content" in example) examples[type] = example.content;
      } catch {
        // A file that is not JSON is not an example.
      }
    }),
  );
  return examples;
}
