import { open } from "node:fs/promises";
import { type EventAttributeNames, safeParseEventDocument } from "../../jsonapi/index.js";
import type { ByteSource } from "../CliIo.js";
import type { Command } from "../Command.js";
import { fileErrorReason as reason } from "../fileErrorReason.js";
import { booleanFlag, integerFlag, type ParsedArgs, stringFlag } from "../parseArgs.js";
import { printable } from "../terminal.js";
import { EXIT, UsageError } from "../UsageError.js";
import { createProgress } from "../validate/createProgress.js";
import { createReporter } from "../validate/createReporter.js";
import type { ValueKind } from "../validate/detectKind.js";
import { valueKinds } from "../validate/detectKind.js";
import { validateSource } from "../validate/validateSource.js";

const MIB = 1024 * 1024;

function attributeNames(args: ParsedArgs): EventAttributeNames | undefined {
  const text = stringFlag(args, "attribute-names");
  if (text === undefined) return undefined;
  const [eventType, content, ...rest] = text.split(",");
  if (eventType === undefined || content === undefined || rest.length > 0 || !eventType || !content) {
    throw new UsageError(
      "--attribute-names takes two names separated by a comma",
      "--attribute-names eventType,content",
    );
  }
  const names = { eventType, content };
  // The safe parser reports names JSON:API forbids as a failure of their own code.
  const checked = safeParseEventDocument({}, { attributeNames: names });
  if (checked.error?.code === "ERR_INVALID_OPTIONS") {
    const reason = checked.error.issues[0]?.message ?? "names JSON:API forbids";
    throw new UsageError(`--attribute-names: ${reason.replace(/^attributeNames\./, "")}`);
  }
  return names;
}

/** `messaging-events validate`: checks events, JSON:API documents and webhook payloads in files or a stream. */
export const validateCommand: Command = {
  name: "validate",
  summary: "Check events, JSON:API event documents or webhook payloads in files or on standard input.",
  usage: "validate [options] [files...]",
  description: `Reads each file (standard input when there is none, or for "-") as NDJSON, one JSON value
per line, and checks every value with the library. A line holding an array gives one value per
element. A JSON document spread over several lines (pretty-printed, or jq's output) is recognised when
the first two lines that are not blank are not JSON on their own and the first opens an object or an
array; it is read whole, up to --max-document-bytes. NDJSON is read one line at a time, so memory
stays flat on a file of any size; a line longer than --max-line-bytes is reported and skipped
without being held in memory. A line that is not JSON (or not UTF-8, as JSON text must be) is
reported with its number, and reading goes on.

Without --kind, each value's kind is detected: an object with "data" is a JSON:API event document;
one with "version" or another webhook payload member (roomId, senderId, senderExternalId,
recipients, referenceId, livechatId, preconditions) is a webhook payload; anything else is an
event { type, content }.

Output: each problem as "file:line: pointer: message" ("file:line: [index] pointer: message" for an
array element, the pointer from the element), then a summary line; colour only on a
terminal, never when NO_COLOR is set. With --format json: one JSON object per value, valid ones
included: { "file", "line", "index" (an array element's position), "kind", "valid", "code",
"issues": [{ "pointer", "code", "message" }], "omittedIssues" }.

On a terminal, standard error shows a progress line while it reads (values and bytes done, the
rate, the problems so far), redrawn in place and erased at the end; never on a pipe or a file, nor
with --quiet.

Exit status: 0 when every value is valid, 1 when one is not (or a line is not JSON, or too long),
2 for a usage error or a file that cannot be read.`,
  flags: [
    {
      name: "kind",
      type: "string",
      values: valueKinds,
      placeholder: "KIND",
      description: "check every value as an event, a document or a payload (default: detect each)",
    },
    {
      name: "format",
      type: "string",
      values: ["human", "json"],
      placeholder: "FORMAT",
      description: "human (default) or json: one result per value, as NDJSON",
    },
    {
      name: "attribute-names",
      type: "string",
      placeholder: "TYPE,CONTENT",
      description: "the document attributes of the event type and content (default: eventType,content)",
    },
    {
      name: "max-line-bytes",
      type: "string",
      placeholder: "BYTES",
      description: "the longest line read; longer ones are reported and skipped (default: 1048576)",
    },
    {
      name: "quiet",
      type: "boolean",
      description: "no progress line on standard error, even on a terminal",
    },
    {
      name: "max-document-bytes",
      type: "string",
      placeholder: "BYTES",
      description: "the largest multi-line JSON document read whole (default: 67108864)",
    },
  ],
  examples: [
    "messaging-events validate fixtures/*.ndjson           # every line of every file",
    "cat events.ndjson | messaging-events validate         # standard input",
    "messaging-events validate --kind payload captured.json",
    "messaging-events validate --format json big.ndjson | jq 'select(.valid | not)'",
    "gunzip -c events.ndjson.gz | messaging-events validate - --max-line-bytes 65536",
  ],
  async run(args, io) {
    const kind = stringFlag(args, "kind") as ValueKind | undefined;
    const format = (stringFlag(args, "format") ?? "human") as "human" | "json";
    const options = {
      kind,
      attributeNames: attributeNames(args),
      maxLineBytes: integerFlag(args, "max-line-bytes", MIB, 1, 1024 * MIB),
      maxDocumentBytes: integerFlag(args, "max-document-bytes", 64 * MIB, 1, 1024 * MIB),
    };
    const files = args.positionals.length === 0 ? ["-"] : args.positionals;
    const reporter = createReporter(format, io.stdout, io.styles);
    const progress =
      io.stderrIsTTY && !booleanFlag(args, "quiet") ? createProgress(io.stderr, reporter.tally) : undefined;
    const flush = (bytes: number) => {
      progress?.read(bytes);
      return io.stdout.flush();
    };
    let unreadable = false;
    for (const file of files) {
      const label = file === "-" ? "<stdin>" : file;
      let source: ByteSource;
      let close = async () => {};
      if (file === "-") source = io.stdin;
      else {
        try {
          const handle = await open(file, "r");
          source = handle.createReadStream({ highWaterMark: 256 * 1024 });
          close = () => handle.close().catch(() => {});
        } catch (error) {
          unreadable = true;
          progress?.done();
          io.stderr.write(
            `${io.errorStyles.red("error")}: cannot read ${printable(file)}: ${reason(error)}\n`,
          );
          continue;
        }
      }
      try {
        await validateSource(source, label, options, reporter.report, flush);
      } catch (error) {
        unreadable = true;
        progress?.done();
        io.stderr.write(
          `${io.errorStyles.red("error")}: cannot read ${printable(label)}: ${reason(error)}\n`,
        );
      } finally {
        await close();
      }
    }
    progress?.done();
    await io.stderr.flush();
    reporter.summary(files.length);
    await io.stdout.flush();
    if (unreadable) return EXIT.usage;
    const { invalid, malformed, tooLong } = reporter.tally;
    return invalid + malformed + tooLong > 0 ? EXIT.failed : EXIT.ok;
  },
};
