/**
 * For the receiver's loopback suite (receiverLoopback.test.ts): a log that orders the handler's runs
 * against the sender's attempts and the receiver's `onError` calls, and the receiver started behind
 * `createServer(receiver.node)` on 127.0.0.1.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createWebhookReceiver,
  type WebhookErrorContext,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookVerificationError,
} from "../../src/webhooks/index.js";

/** One handler run, from its start to its end. */
export interface HandlerRun {
  /** The delivery id, or `undefined` for a request without one. */
  readonly deliveryId: string | undefined;
  /** The MAC (128 hex digits) of the request that ran it. */
  readonly signature: string;
  /** `content.body` of the payload: the test's own name for the delivery. */
  readonly tag: string;
  /** Its place in the log when it started. */
  readonly started: number;
  /** Its place in the log when it ended; `undefined` while it runs. */
  ended: number | undefined;
  /** `"ok"` when it returned, `"failed"` when it threw; `undefined` while it runs. */
  outcome: "ok" | "failed" | undefined;
}

/** What `onError` was told. */
export interface ReportedError {
  readonly error: WebhookVerificationError;
  readonly context: WebhookErrorContext;
  /** Its place in the log. */
  readonly at: number;
}

/** A log of numbered events: handler runs and whatever the test records beside them (answers, attempts). */
export class EventLog {
  #next = 0;
  readonly runs: HandlerRun[] = [];
  readonly errors: ReportedError[] = [];
  readonly lines: string[] = [];

  /** The next place in the log, for an event the test records itself. */
  tick(line?: string): number {
    if (line !== undefined) this.lines.push(line);
    return this.#next++;
  }

  /** Opens a run; the returned function closes it. */
  start(
    tag: string,
    deliveryId: string | undefined,
    signature: string,
  ): (outcome: "ok" | "failed") => HandlerRun {
    const run: HandlerRun = {
      deliveryId,
      signature,
      tag,
      started: this.tick(`run ${tag} start`),
      ended: undefined,
      outcome: undefined,
    };
    this.runs.push(run);
    return (outcome) => {
      run.outcome = outcome;
      run.ended = this.tick(`run ${tag} ${outcome}`);
      return run;
    };
  }

  /** The runs of one delivery (by `content.body`). */
  runsOf(tag: string): HandlerRun[] {
    return this.runs.filter((run) => run.tag === tag);
  }

  /** The most runs of one delivery that were under way at the same time. */
  mostAtOnce(tag: string): number {
    const edges = this.runsOf(tag).flatMap((run) => [
      [run.started, 1],
      [run.ended ?? Number.POSITIVE_INFINITY, -1],
    ]);
    edges.sort((a, b) => a[0]! - b[0]!);
    let now = 0;
    let most = 0;
    for (const [, step] of edges) {
      now += step!;
      most = Math.max(most, now);
    }
    return most;
  }

  /** Records what `onError` was told (pass as the receiver's `onError`). */
  readonly onError = (error: WebhookVerificationError, context: WebhookErrorContext): void => {
    this.errors.push({ error, context, at: this.tick(`error ${context.status} ${error.code}`) });
  };
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true, or fails after `timeoutMs`. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A receiver behind `createServer(receiver.node)` on 127.0.0.1. */
export interface ReceiverServer {
  readonly receiver: WebhookReceiver;
  readonly url: string;
  close(): Promise<void>;
}

export async function startReceiverServer(options: WebhookReceiverOptions): Promise<ReceiverServer> {
  const receiver = createWebhookReceiver(options);
  const server = createServer(receiver.node);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    receiver,
    url: `http://127.0.0.1:${port}/hooks`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await receiver.close();
    },
  };
}
