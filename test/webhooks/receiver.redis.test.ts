/**
 * createWebhookReceiver across processes: two receiver processes (receiverProcess.ts, bundled with
 * esbuild) share one real redis-server through createRedisIdempotencyStore. The test is the sender:
 * at least once, with racing duplicates and retries. Handler runs are counted from the processes' own
 * report lines and ordered against the answers by their times (one machine, one clock); every child
 * must exit by itself when asked, proving the receiver leaves nothing open.
 */

import { once } from "node:events";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signWebhook, WEBHOOK_ID_HEADER } from "../../src/webhooks/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { bundleChild, type ReportingChild, startReportingChild } from "../support/reportingChild.js";

const source = fileURLToPath(new URL("./receiverProcess.ts", import.meta.url));
const outDir = fileURLToPath(new URL("../../.tmp/webhook-receiver/", import.meta.url));
// Bundled once, so that each process starts in well under a second (redis stays an import).
const script = `${outDir}receiverProcess.mjs`;
const secret = "whsec_receiver_suite";

interface Report {
  readonly event: "listening" | "start" | "end" | "error" | "closed";
  readonly pid: number;
  /** Date.now() in the child when it wrote the line. */
  readonly t: number;
  readonly port?: number;
  readonly id?: string;
  readonly body?: string;
  readonly attempt?: number;
  readonly outcome?: "ok" | "failed";
  readonly code?: string;
  readonly status?: number;
}

type ReceiverProcess = ReportingChild<Report>;

let redis: RedisServer;
const children: ReceiverProcess[] = [];

beforeAll(async () => {
  await bundleChild(source, script);
  redis = await startRedisServer();
});

afterEach(() => {
  for (const each of children.splice(0)) {
    if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill("SIGKILL");
  }
});

afterAll(async () => {
  for (const each of children.splice(0)) {
    if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill("SIGKILL");
  }
  await redis?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

async function startReceiver(env: Record<string, string>): Promise<ReceiverProcess> {
  const receiver = await startReportingChild<Report>(
    script,
    { REDIS_URL: redis.url, SIGNING_SECRET: secret, ...env },
    "receiver process",
  );
  children.push(receiver);
  return receiver;
}

/** Both processes, each with this lease. */
const startPair = (leaseMs: number) =>
  Promise.all([startReceiver({ LEASE_MS: String(leaseMs) }), startReceiver({ LEASE_MS: String(leaseMs) })]);

interface Signed {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** Signs a text message with this body, now (a new timestamp, so a new signature, every call). */
async function sign(body: string, deliveryId?: string): Promise<Signed> {
  const signed = await signWebhook({
    payload: { type: "s.message.text", version: 2, content: { body }, roomId: "room-1" },
    secret,
  });
  return {
    body: signed.body,
    headers:
      deliveryId === undefined
        ? { ...signed.headers }
        : { ...signed.headers, [WEBHOOK_ID_HEADER]: deliveryId },
  };
}

interface Answer {
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfter: string | null;
  /** Date.now() here once the whole answer was read. */
  readonly t: number;
}

async function post(port: number, signed: Signed): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  const code = text === "" ? undefined : (JSON.parse(text) as { code: string }).code;
  return { status: response.status, code, retryAfter: response.headers.get("retry-after"), t: Date.now() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest a sender here waits on Retry-After: the lease is short, the suite must be too. */
const RETRY_AFTER_CAP_MS = 100;

/**
 * One at-least-once sender lane: sends the delivery (re-signed on every retry, same id) to the
 * processes in turn from `start`, after a 500, 409 or 503, until a 204. Any other answer is a failure.
 */
async function sendUntilProcessed(
  ports: readonly number[],
  body: string,
  deliveryId: string,
  first: Signed,
  start: number,
  answers: Answer[],
): Promise<void> {
  let signed = first;
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await post(ports[(start + attempt) % ports.length]!, signed);
    answers.push(answer);
    if (answer.status === 204) return;
    if (answer.status !== 500 && answer.status !== 409 && answer.status !== 503) {
      throw new Error(`${deliveryId}: unexpected ${answer.status} ${answer.code}`);
    }
    const retryAfterMs = answer.retryAfter === null ? 0 : Number(answer.retryAfter) * 1000;
    await sleep(Math.min(retryAfterMs, RETRY_AFTER_CAP_MS) + 5 + Math.random() * 20);
    signed = await sign(body, deliveryId);
  }
  const last = answers.slice(-10).map((each) => `${each.status} ${each.code ?? ""}`);
  throw new Error(`${deliveryId} never got a 204 in 200 attempts; the last answers: ${last.join(", ")}`);
}

const runsOf = (processes: readonly ReceiverProcess[], id: string) =>
  processes.flatMap((each) => each.reports).filter((report) => report.id === id);

/**
 * Pairs each process's start lines with its end lines for one id, in order (a process runs one id at
 * a time here, which the overlap check then also proves across processes). An unfinished run ends at
 * Infinity.
 */
function intervalsOf(processes: readonly ReceiverProcess[], id: string) {
  const intervals: { pid: number; start: number; end: number; outcome: string | undefined }[] = [];
  for (const each of processes) {
    const starts = each.reports.filter((report) => report.event === "start" && report.id === id);
    const ends = each.reports.filter((report) => report.event === "end" && report.id === id);
    starts.forEach((start, index) => {
      intervals.push({
        pid: start.pid,
        start: start.t,
        end: ends[index]?.t ?? Number.POSITIVE_INFINITY,
        outcome: ends[index]?.outcome,
      });
    });
  }
  return intervals.sort((a, b) => a.start - b.start);
}

describe("createWebhookReceiver: two processes on one Redis", () => {
  it("1,000 deliveries, each sent to both processes at once and retried at least once: every handler succeeds exactly once, 3 failing ones run twice, no 204 before the handler ended, no overlapping runs", async () => {
    const started = Date.now();
    const processes = await startPair(2_000);
    const ports = processes.map((each) => each.port);
    const total = 1_000;
    const failing = new Set([7, 500, 993]);
    const deliveries = Array.from({ length: total }, (_, index) => ({
      id: `bulk-${index}`,
      // 5 to 24 ms of work: long enough that a 204 sent before the end, or an overlap, shows.
      body: `n${index} slow:${5 + (index % 20)}${failing.has(index) ? " fail-once" : ""}`,
    }));
    const answers = new Map<string, Answer[]>(deliveries.map(({ id }) => [id, []]));
    let next = 0;
    // 20 deliveries at a time, each as two racing copies (one per process), each copy retried until 204.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < total) {
          const index = next++;
          const { id, body } = deliveries[index]!;
          const signed = await sign(body, id);
          await Promise.all(
            [0, 1].map((lane) => sendUntilProcessed(ports, body, id, signed, lane, answers.get(id)!)),
          );
        }
      }),
    );
    const sent = Date.now();
    // Stopping waits for each child's output to be read to the end: every report line is in.
    expect(await Promise.all(processes.map((each) => each.stop()))).toEqual([0, 0]);

    const all = [...answers.values()].flat();
    const count = (status: number) => all.filter((answer) => answer.status === status).length;
    console.log(
      `${total} deliveries x 2 racing copies on 2 processes in ${sent - started} ms: ${all.length} requests (${count(204)} 204, ${count(409)} 409, ${count(500)} 500, ${count(503)} 503)`,
    );
    for (const [index, { id }] of deliveries.entries()) {
      const reports = runsOf(processes, id);
      const starts = reports.filter((report) => report.event === "start");
      const oks = reports.filter((report) => report.event === "end" && report.outcome === "ok");
      const fails = reports.filter((report) => report.event === "end" && report.outcome === "failed");
      expect({ id, ok: oks.length }).toEqual({ id, ok: 1 });
      expect({ id, starts: starts.length, failed: fails.length }).toEqual(
        failing.has(index) ? { id, starts: 2, failed: 1 } : { id, starts: 1, failed: 0 },
      );
      // No 204 for this delivery (either copy, either process) before its successful run ended.
      const succeededAt = oks[0]!.t;
      for (const answer of answers.get(id)!) {
        if (answer.status === 204)
          expect({ id, early: answer.t < succeededAt }).toEqual({ id, early: false });
      }
      // Runs of one delivery never overlap, whichever processes they were on.
      const intervals = intervalsOf(processes, id);
      for (let i = 1; i < intervals.length; i++) {
        expect({ id, overlap: intervals[i]!.start < intervals[i - 1]!.end }).toEqual({ id, overlap: false });
      }
      // Both copies ended with 204: the duplicate settled too.
      expect(answers.get(id)!.filter((answer) => answer.status === 204)).toHaveLength(2);
    }
    // A 500 only for a handler that threw: once per failing delivery.
    const failures = all.filter((answer) => answer.status === 500);
    expect(failures.map((answer) => answer.code)).toEqual(Array(3).fill("ERR_WEBHOOK_HANDLER_FAILED"));
    // The copies really raced (409 while the other process held the delivery), and both processes worked.
    expect(count(409)).toBeGreaterThan(0);
    const oks = processes.flatMap((each) => each.reports).filter((report) => report.outcome === "ok");
    expect(oks).toHaveLength(total);
    expect(new Set(oks.map((report) => report.pid)).size).toBe(2);
    // No completion was lost (onError is told of a 204 whose completion could not be stored).
    const errors = processes.flatMap((each) => each.reports).filter((report) => report.event === "error");
    expect(errors.filter((report) => report.status === 204)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("a process SIGKILLed mid-handler: the request fails, a retry within the lease gets 409 with Retry-After, after the lease the other process handles it exactly once", async () => {
    const leaseMs = 1_500;
    const [holder, survivor] = await startPair(leaseMs);
    const id = "killed-1";
    const body = "killed hang-once";
    const pending = post(holder!.port, await sign(body, id)).then(
      (answer) => ({ answer, error: undefined }),
      (error: unknown) => ({ answer: undefined, error }),
    );
    while (!holder!.reports.some((report) => report.event === "start" && report.id === id)) await sleep(5);
    const handlerStart = holder!.reports.find((report) => report.event === "start" && report.id === id)!.t;
    holder!.child.kill("SIGKILL");
    await once(holder!.child, "exit");
    const killed = await pending;
    // The connection closed without an answer: the sender has to retry.
    expect(killed.answer).toBeUndefined();
    expect(killed.error).toBeInstanceOf(Error);

    // Within the lease, the dead process still holds the delivery: 409, Retry-After the lease in seconds.
    const within = await post(survivor!.port, await sign(body, id));
    expect(within.t - handlerStart).toBeLessThan(leaseMs);
    expect(within).toMatchObject({ status: 409, code: "ERR_WEBHOOK_IN_PROGRESS", retryAfter: "2" });
    expect(runsOf([survivor!], id).filter((report) => report.event === "start")).toEqual([]);

    // The sender honours Retry-After; the lease has run out by then and the survivor takes over.
    await sleep(Number(within.retryAfter) * 1000);
    const after = await post(survivor!.port, await sign(body, id));
    expect(after).toMatchObject({ status: 204, code: undefined });
    // Not freed before the lease ran out (the lease was taken before the first run started).
    expect(after.t - handlerStart).toBeGreaterThanOrEqual(leaseMs - 50);

    // Later copies, to either side, find it processed without running anything.
    expect(await post(survivor!.port, await sign(body, id))).toMatchObject({ status: 204 });
    expect(await survivor!.stop()).toBe(0);
    const starts = runsOf([holder!, survivor!], id).filter((report) => report.event === "start");
    expect(starts.map((report) => [report.pid, report.attempt])).toEqual([
      [holder!.child.pid, 1],
      [survivor!.child.pid, 2],
    ]);
    const ends = runsOf([holder!, survivor!], id).filter((report) => report.event === "end");
    expect(ends.map((report) => [report.pid, report.outcome])).toEqual([[survivor!.child.pid, "ok"]]);
    expect(after.t).toBeGreaterThanOrEqual(ends[0]!.t);
  });

  it("a handler running past its lease keeps the delivery (the lease is renewed): copies sent to the other process meanwhile get 409, it runs once", async () => {
    const leaseMs = 1_000;
    const [worker, other] = await startPair(leaseMs);
    const id = "renewed-1";
    const body = "renewed slow:3500";
    const running = post(worker!.port, await sign(body, id));
    while (!worker!.reports.some((report) => report.event === "start" && report.id === id)) await sleep(5);
    const handlerStart = worker!.reports.find((report) => report.event === "start" && report.id === id)!.t;
    // Copies for three leases' time: an unrenewed lease would let one of them run the handler.
    const copies: Answer[] = [];
    while (Date.now() - handlerStart < 3_000) {
      copies.push(await post(other!.port, await sign(body, id)));
      await sleep(200);
    }
    const handled = await running;
    expect(handled.status).toBe(204);
    expect(copies.length).toBeGreaterThanOrEqual(10);
    expect(copies.filter((copy) => copy.status !== 409)).toEqual([]);
    expect(await post(other!.port, await sign(body, id))).toMatchObject({ status: 204 });
    expect(await Promise.all([worker!.stop(), other!.stop()])).toEqual([0, 0]);
    const reports = runsOf([worker!, other!], id).filter((report) => report.event !== "error");
    expect(reports.map((report) => [report.event, report.pid, report.outcome])).toEqual([
      ["start", worker!.child.pid, undefined],
      ["end", worker!.child.pid, "ok"],
    ]);
  });

  it("without a delivery id only exact replays are caught: the same signed request to both processes at once runs once, an exact replay later is refused (401), a re-signed copy runs again", async () => {
    const processes = await startPair(2_000);
    const [first, second] = processes;
    const body = "no-id slow:200";
    const signed = await sign(body);
    const runs = () => processes.flatMap((each) => each.reports).filter((report) => report.body === body);
    const starts = () => runs().filter((report) => report.event === "start");

    const [a, b] = await Promise.all([post(first!.port, signed), post(second!.port, signed)]);
    const [handled, refused] = a!.status === 204 ? [a!, b!] : [b!, a!];
    expect(handled.status).toBe(204);
    // The copy that lost the race: in progress (409, retry later) or, if it came after the end, an exact replay.
    expect([
      { status: 409, code: "ERR_WEBHOOK_IN_PROGRESS" },
      { status: 401, code: "ERR_WEBHOOK_REPLAYED" },
    ]).toContainEqual({ status: refused.status, code: refused.code });
    expect(starts()).toHaveLength(1);

    // An exact replay later, to either process, is refused: the signature is remembered.
    for (const port of [first!.port, second!.port]) {
      expect(await post(port, signed)).toMatchObject({ status: 401, code: "ERR_WEBHOOK_REPLAYED" });
    }
    expect(starts()).toHaveLength(1);

    // The same payload signed again (new timestamp, new signature) is a new webhook: it runs again.
    await sleep(5);
    const resigned = await sign(body);
    expect(resigned.headers["service-signature"]).not.toBe(signed.headers["service-signature"]);
    expect(await post(second!.port, resigned)).toMatchObject({ status: 204 });
    expect(starts()).toHaveLength(2);
    expect(new Set(starts().map((report) => report.id)).size).toBe(2);

    expect(await Promise.all(processes.map((each) => each.stop()))).toEqual([0, 0]);
    expect(runs().filter((report) => report.event === "end" && report.outcome === "ok")).toHaveLength(2);
  });
});
