import { describe, expect, it } from "vitest";
import { readBytesWithLimit } from "./readBytesWithLimit.js";

const encoder = new TextEncoder();

/** A stream of the given chunks; `forever` keeps pulling chunks without end. */
function streamOf(chunks: string[], forever = false) {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled < chunks.length) controller.enqueue(encoder.encode(chunks[pulled++]));
      else if (forever) controller.enqueue(new Uint8Array(1024));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, wasCancelled: () => cancelled };
}

describe("readBytesWithLimit", () => {
  it.each([
    [[], 0, ""],
    [["abc"], 3, "abc"],
    [["ab", "c", "", "dé"], 6, "abcdé"],
  ])("reads %j within a cap of %i bytes", async (chunks, maxBytes, text) => {
    const result = await readBytesWithLimit(streamOf(chunks).stream, maxBytes);
    expect(result.success && new TextDecoder().decode(result.bytes)).toBe(text);
  });

  it("a null body is empty", async () => {
    expect(await readBytesWithLimit(null, 0)).toEqual({ success: true, bytes: new Uint8Array(0) });
  });

  it("stops one chunk past the cap and cancels the stream", async () => {
    const { stream, wasCancelled } = streamOf(["abc", "d", "efgh"]);
    expect(await readBytesWithLimit(stream, 3)).toEqual({ success: false, readBytes: 4 });
    expect(wasCancelled()).toBe(true);
  });

  it("stops a never-ending stream at the cap", async () => {
    const { stream, wasCancelled } = streamOf([], true);
    const result = await readBytesWithLimit(stream, 1_048_576);
    expect(result).toEqual({ success: false, readBytes: 1_048_576 + 1024 });
    expect(wasCancelled()).toBe(true);
  });

  it("passes a read error on", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    await expect(readBytesWithLimit(stream, 10)).rejects.toThrow("connection reset");
  });
});
