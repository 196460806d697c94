/** Bundles a snippet that imports the built package, as a user's bundler would, and measures it. */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { EventType } from "../../src/events/index.js";

const root = new URL("../../", import.meta.url).pathname;

export interface BundleReport {
  readonly code: string;
  /** Minified bytes. */
  readonly minified: number;
  /** Minified, then gzip -9, bytes. */
  readonly gzipped: number;
}

/** Bundles `source` (ESM that imports "messaging-events…") for the browser, minified. */
export async function bundle(source: string): Promise<BundleReport> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, sourcefile: "entry.js", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  return { code, minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;

/** Strings that only one content schema contains: a bundle holding one holds that type's code. */
export const schemaMarkers: Partial<Record<EventType, string>> = {
  "s.change": "relationship",
  "s.presence": "INVISIBLE",
  "s.form": "formId",
  "s.invitation": "inviterId",
  "s.mention": "eventId",
  "s.message.text.translation": "sourceLanguage",
  "s.message.media": "mediaId",
  "s.message.edit": "editedType",
  "s.message.preview": "fileId",
  "s.message.action": "textarea",
  "s.message.action.invocation.validation": "FAILURE",
  "s.room.create": "creatorId",
  "s.room.membership": "inviteeId",
  "s.support.delegate": "agentId",
  "s.support.request": "liveChatId",
  "s.support.request.rejected": "OUTSIDE_BUSINESS_HOURS",
  "s.timer": "EXPIRED",
};
