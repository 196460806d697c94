import type { ByteSource } from "../CliIo.js";
import { createLineSplitter } from "./createLineSplitter.js";
import { createValueReader, type ReaderOptions } from "./createValueReader.js";
import type { ValueResult } from "./ValueResult.js";

const encoder = new TextEncoder();

/**
 * Reads one source chunk by chunk and reports a result per value; `afterChunk` runs after each chunk
 * with its size in bytes (to write the output and wait for it to drain, so memory stays flat however
 * large the source, and to count progress).
 */
export async function validateSource(
  source: ByteSource,
  file: string,
  options: ReaderOptions,
  report: (result: ValueResult) => void,
  afterChunk: (bytes: number) => Promise<void>,
): Promise<void> {
  const reader = createValueReader(file, options, report);
  const splitter = createLineSplitter(options.maxLineBytes, reader);
  for await (const chunk of source) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    splitter.push(bytes);
    await afterChunk(bytes.byteLength);
  }
  splitter.end();
  reader.end();
  await afterChunk(0);
}
