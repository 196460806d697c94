/** The part of a Node.js writable stream (process.stdout) the program writes to. */
export interface WritableLike {
  write(chunk: string): boolean;
  once(event: "drain", listener: () => void): unknown;
  readonly isTTY?: boolean;
}

/** Text written in batches, waiting for the stream to drain, so a long run stays in bounded memory. */
export interface Output {
  /** Queues text; it is written when the batch is full or at the next {@link Output.flush}. */
  write(text: string): void;
  /** Writes what is queued and waits until the stream can take more. */
  flush(): Promise<void>;
}

const BATCH_CHARS = 64 * 1024;

/** An {@link Output} over a stream. */
export function createOutput(stream: WritableLike): Output {
  let queued: string[] = [];
  let size = 0;
  let drained: Promise<void> | undefined;
  const push = () => {
    if (size === 0) return;
    const text = queued.join("");
    queued = [];
    size = 0;
    if (!stream.write(text) && drained === undefined) {
      drained = new Promise((resolve) => {
        stream.once("drain", () => {
          drained = undefined;
          resolve();
        });
      });
    }
  };
  return {
    write(text) {
      queued.push(text);
      size += text.length;
      if (size >= BATCH_CHARS) push();
    },
    async flush() {
      push();
      if (drained !== undefined) await drained;
    },
  };
}
