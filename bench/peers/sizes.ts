/**
 * What each validator costs a browser bundle, measured as the package's own sizes are (esbuild,
 * minified, then gzip -9): the peers' one-type and all-types validators, and the library's from
 * the built `dist/` for comparison.
 */
import { bundle } from "../../test/support/bundle.js";
import { ajvStandaloneSource } from "./ajv.js";

/** One measured bundle. */
export interface SizeRow {
  readonly label: string;
  /** Minified, then gzip -9, bytes. */
  readonly gzipped: number;
}

// A name only the largest content schemas use: a one-type bundle that holds it kept them all.
const OTHER_TYPES_MARKER = "OUTSIDE_BUSINESS_HOURS";

async function measure(label: string, source: string, oneType: boolean): Promise<SizeRow> {
  const report = await bundle(source);
  if (!label.startsWith("messaging-events") && report.code.includes("_zod")) {
    throw new Error(`the peer bundle "${label}" holds Zod, pulled in through a helper it imports from src/`);
  }
  if (oneType && report.code.includes(OTHER_TYPES_MARKER)) {
    throw new Error(`the one-type bundle "${label}" holds the other types' schemas: tree-shaking failed`);
  }
  return { label, gzipped: report.gzipped };
}

/** Bundles and measures every row (each entry keeps what it imports alive by logging it). */
export async function measurePeerSizes(): Promise<SizeRow[]> {
  return [
    await measure(
      "messaging-events `safeParseMessageTextContent` (one type, from dist/)",
      `import { safeParseMessageTextContent } from "messaging-events/events";
       console.log(safeParseMessageTextContent);`,
      true,
    ),
    await measure(
      "messaging-events `isMessageTextContent` (one type's guard, from dist/)",
      `import { isMessageTextContent } from "messaging-events/events"; console.log(isMessageTextContent);`,
      true,
    ),
    await measure(
      "messaging-events `isEventContent`, `isEvent` (all 32 guards, from dist/)",
      `import { isEventContent, isEvent } from "messaging-events/events"; console.log(isEventContent, isEvent);`,
      false,
    ),
    await measure(
      "messaging-events `safeParseEventContent` (all 32, from dist/)",
      `import { safeParseEventContent } from "messaging-events/events"; console.log(safeParseEventContent);`,
      false,
    ),
    // What every compiled validator shares, without any validator: the error class and its summary,
    // the exact walk of the limits, the issue and the message helpers (names, quoting, paths). The
    // one-type budget cannot go below it.
    await measure(
      "messaging-events, shared by every validator: error class, limits walk, message helpers (from dist/)",
      `import { validationError } from "./dist/events/EventValidationError.js";
       import { breachIssue, findLimitBreach, reasonOf } from "./dist/internal/findLimitBreach.js";
       import { makeIssue } from "./dist/internal/issue.js";
       import { describeValue, pathLabel, quote, withArticle } from "./dist/internal/describe.js";
       import { normalizeLimits } from "./dist/internal/limits.js";
       import { codePointLength } from "./dist/internal/codePointLength.js";
       console.log(validationError, breachIssue, findLimitBreach, reasonOf, makeIssue, describeValue,
         pathLabel, quote, withArticle, normalizeLimits, codePointLength);`,
      true,
    ),
    await measure("Ajv standalone code, s.message.text", ajvStandaloneSource(["s.message.text"]), true),
    await measure("Ajv standalone code, all 32", ajvStandaloneSource(), false),
    await measure(
      "TypeBox `TypeCompiler.Compile`, s.message.text",
      `import { TypeCompiler } from "@sinclair/typebox/compiler";
       import { messageText } from "./bench/peers/typebox.js";
       const compiled = TypeCompiler.Compile(messageText);
       console.log((v) => compiled.Check(v) || compiled.Errors(v).First()?.message);`,
      true,
    ),
    await measure(
      "valibot `safeParse`, s.message.text",
      `import { safeParse } from "valibot";
       import { messageText } from "./bench/peers/valibot.js";
       console.log((v) => safeParse(messageText, v));`,
      true,
    ),
  ];
}
