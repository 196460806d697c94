import { eventTypes } from "../../events/index.js";
import type { Command } from "../Command.js";
import { distFolder } from "../packageFiles.js";
import { booleanFlag, closest } from "../parseArgs.js";
import { readContractFile } from "../readContractFile.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";

/** `messaging-events schema`: prints the JSON Schema of an event type's content or of the whole event, or the OpenAPI or AsyncAPI document. */
export const schemaCommand: Command = {
  name: "schema",
  summary:
    "Print the JSON Schema (draft 2020-12) of an event type's content or of the whole event, or the OpenAPI or AsyncAPI document.",
  usage: "schema [options] [type]",
  description: `With a type, prints the JSON Schema of that type's content; without one, the schema of a
whole event { type, content }, which picks the content schema by type. These are the files the
package ships as messaging-events/json-schema/<type>.json and event.json, for validators in other
languages. --list prints the 32 event types, one per line.

--openapi prints the OpenAPI 3.1 document of POST /events and the webhooks
(messaging-events/openapi.json), --asyncapi the AsyncAPI 3.0 document of the webhooks
(messaging-events/asyncapi.json). Their schemas are references to the JSON Schema files beside
them (./json-schema/…): give your tools the file in the installed package
(node_modules/messaging-events/dist/openapi.json), or the emulator's URL
(http://127.0.0.1:4010/openapi.json), so that the references resolve.

Exit status: 0, or 2 for an unknown type.`,
  flags: [
    { name: "list", type: "boolean", description: "list the event types instead" },
    { name: "openapi", type: "boolean", description: "print the OpenAPI 3.1 document instead" },
    {
      name: "asyncapi",
      type: "boolean",
      description: "print the AsyncAPI 3.0 document of the webhooks instead",
    },
  ],
  examples: [
    "messaging-events schema                      # the whole event",
    "messaging-events schema s.message.text       # one type's content",
    "messaging-events schema --list",
    "messaging-events schema s.form > s.form.schema.json",
    "messaging-events schema --openapi > openapi.json",
  ],
  async run(args, io) {
    if (args.positionals.length > 1) throw new UsageError("schema takes at most one type");
    const [type] = args.positionals;
    const chosen = (["list", "openapi", "asyncapi"] as const).filter((flag) => booleanFlag(args, flag));
    if (chosen.length > 1)
      throw new UsageError(`--${chosen[0]} and --${chosen[1]} print different things: pick one`);
    if (chosen.length === 1 && type !== undefined) throw new UsageError(`--${chosen[0]} takes no type`);
    if (chosen[0] === "list") {
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
    const file = chosen[0] === undefined ? `json-schema/${type ?? "event"}.json` : `${chosen[0]}.json`;
    const text = await readContractFile(file);
    if (text === undefined) {
      io.stderr.write(
        `${io.errorStyles.red("error")}: ${file} is missing from this installation (expected in ${printable(decodeURI(distFolder.pathname))})\n`,
      );
      return EXIT.failed;
    }
    io.stdout.write(text);
    return EXIT.ok;
  },
};
