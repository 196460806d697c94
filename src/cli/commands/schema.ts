import { readFile } from "node:fs/promises";
import { eventTypes } from "../../events/index.js";
import type { Command } from "../Command.js";
import { jsonSchemaFolder, jsonSchemaGenerator, runsFromSource } from "../packageFiles.js";
import { booleanFlag, closest } from "../parseArgs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";

/**
 * The text of a schema file. The built program reads the files the package ships, so it prints
 * byte for byte what `messaging-events/json-schema/*.json` exports; run from a checkout through tsx,
 * it generates them from the current source with the build's own generator instead (dist/ may be
 * missing or stale there).
 */
async function schemaText(file: string): Promise<string | undefined> {
  if (runsFromSource) {
    const generator = (await import(jsonSchemaGenerator.href)) as {
      jsonSchemaFiles(): Map<string, unknown>;
    };
    const schema = generator.jsonSchemaFiles().get(file);
    return schema === undefined ? undefined : `${JSON.stringify(schema, null, 2)}\n`;
  }
  try {
    return await readFile(new URL(file, jsonSchemaFolder), "utf8");
  } catch {
    return undefined;
  }
}

/** `messaging-events schema`: prints the JSON Schema of an event type's content, or of the whole event. */
export const schemaCommand: Command = {
  name: "schema",
  summary: "Print the JSON Schema (draft 2020-12) of an event type's content, or of the whole event.",
  usage: "schema [options] [type]",
  description: `With a type, prints the JSON Schema of that type's content; without one, the schema of a
whole event { type, content }, which picks the content schema by type. These are the files the
package ships as messaging-events/json-schema/<type>.json and event.json, for validators in other
languages. --list prints the 32 event types, one per line.

Exit status: 0, or 2 for an unknown type.`,
  flags: [{ name: "list", type: "boolean", description: "list the event types instead" }],
  examples: [
    "messaging-events schema                      # the whole event",
    "messaging-events schema s.message.text       # one type's content",
    "messaging-events schema --list",
    "messaging-events schema s.form > s.form.schema.json",
  ],
  async run(args, io) {
    if (args.positionals.length > 1) throw new UsageError("schema takes at most one type");
    const [type] = args.positionals;
    if (booleanFlag(args, "list")) {
      if (type !== undefined) throw new UsageError("--list takes no type");
      io.stdout.write(`${eventTypes.join("\n")}\n`);
      return EXIT.ok;
    }
    if (type !== undefined && !(eventTypes as readonly string[]).includes(type)) {
      const near = closest(type, eventTypes);
      throw new UsageError(
        `unknown event type ${JSON.stringify(printable(type).slice(0, 60))}`,
        near === undefined ? "messaging-events schema --list prints the types" : `did you mean ${near}?`,
      );
    }
    const file = `${type ?? "event"}.json`;
    const text = await schemaText(file);
    if (text === undefined) {
      io.stderr.write(
        `${io.errorStyles.red("error")}: ${file} is missing from this installation (expected in ${printable(decodeURI(jsonSchemaFolder.pathname))})\n`,
      );
      return EXIT.failed;
    }
    io.stdout.write(text);
    return EXIT.ok;
  },
};
