import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keepText, readKeptText, utf8Bytes } from "./keepText.js";

const stream = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

describe("keepText", () => {
  it("keeps a short text whole", () => {
    expect(keepText('{"a":1}', 16)).toEqual({ text: '{"a":1}', bytes: 7, cut: false });
  });

  it("cuts a long text at a character boundary and says so", () => {
    const kept = keepText("ab€€€", 6); // 2 + 3 × 3 bytes
    expect(kept).toEqual({ text: "ab€", bytes: 11, cut: true });
  });

  it("never keeps more than the limit, never half a character, and counts like TextEncoder", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 60 }),
        fc.integer({ min: 0, max: 80 }),
        (text, limit) => {
          const kept = keepText(text, limit);
          expect(kept.bytes).toBe(new TextEncoder().encode(text).byteLength);
          expect(utf8Bytes(kept.text)).toBeLessThanOrEqual(limit);
          expect(text.startsWith(kept.text)).toBe(true);
          expect(kept.cut).toBe(kept.bytes > limit);
        },
      ),
    );
  });
});

describe("readKeptText", () => {
  it("reads a small body whole", async () => {
    expect(await readKeptText(stream('{"data":', "1}"), 100)).toEqual({
      text: '{"data":1}',
      bytes: 10,
      cut: false,
    });
  });

  it("stops reading past the limit", async () => {
    const kept = await readKeptText(stream("x".repeat(10), "y".repeat(10)), 12);
    expect(kept).toMatchObject({ text: `${"x".repeat(10)}yy`, cut: true });
  });

  it("keeps what came when told to stop (a body that never ends)", async () => {
    let push: ((chunk: Uint8Array) => void) | undefined;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => controller.enqueue(chunk);
      },
    });
    push!(new TextEncoder().encode("partial"));
    const kept = await readKeptText(endless, 100, new Promise((resolve) => setTimeout(resolve, 20)));
    expect(kept).toEqual({ text: "partial", bytes: 7, cut: true });
  });

  it("reads nothing from no body", async () => {
    expect(await readKeptText(null, 10)).toEqual({ text: "", bytes: 0, cut: false });
  });
});
