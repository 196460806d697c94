/**
 * Two handler processes on a real Redis Cluster of three masters, each with its own `createCluster()`
 * connection: 1,000 requests over 100 keys, interleaved across both processes, create 100 events,
 * one per key, and every other answer is a replay of that key's first. Creates are counted from the
 * processes' own reports; the records are looked up on each master's own connection. Children and
 * cluster nodes are stopped by PID, also when the test fails.
 */

import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type RedisCluster, startRedisCluster } from "../support/redisServer.js";
import { bundleChild, type ReportingChild, startReportingChild } from "../support/reportingChild.js";
import { createHeaders, documentFor } from "./support.js";

const source = fileURLToPath(new URL("./clusterHandlerProcess.ts", import.meta.url));
// One directory per run, so that two runs at once never remove each other's bundle.
const outDir = fileURLToPath(new URL(`../../.tmp/server-cluster-${process.pid}/`, import.meta.url));
// Bundled once, so that each process starts in well under a second (redis stays an import).
const script = `${outDir}clusterHandlerProcess.mjs`;

interface Report {
  readonly event: string;
  readonly key?: string;
  readonly id?: string;
  readonly port?: number;
  readonly errors?: number;
  readonly pid: number;
}

type HandlerProcess = ReportingChild<Report>;

let cluster: RedisCluster | undefined;
const children: HandlerProcess[] = [];
const spawned: ChildProcess[] = [];

beforeAll(async () => {
  await bundleChild(source, script);
  cluster = await startRedisCluster();
});

afterAll(async () => {
  // Whatever is still running (a failed test never reached its own stop) is killed by its PID.
  for (const child of spawned.splice(0)) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = once(child, "exit");
      process.kill(child.pid, "SIGKILL");
      await exited;
    }
  }
  children.length = 0;
  await cluster?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

async function startHandler(env: Record<string, string> = {}): Promise<HandlerProcess> {
  const handle = await startReportingChild<Report>(
    script,
    { REDIS_CLUSTER_URLS: cluster!.rootNodes.map(({ url }) => url).join(","), ...env },
    "cluster handler process",
  );
  spawned.push(handle.child);
  children.push(handle);
  return handle;
}

/** The keys matching `pattern` on each master, each asked on its own connection. */
async function keysPerNode(pattern: string): Promise<string[][]> {
  return Promise.all(
    cluster!.nodes.map(async ({ url }) => {
      const node = createClient({ url });
      node.on("error", () => undefined);
      await node.connect();
      try {
        return (await node.sendCommand(["KEYS", pattern])) as string[];
      } finally {
        await node.close();
      }
    }),
  );
}

interface Answer {
  readonly key: string;
  readonly port: number;
  readonly status: number;
  readonly replayed: boolean;
  readonly id: string | undefined;
  readonly statuses: readonly number[];
}

/** Retry-After in ms, capped so that the suite stays short (the wait is still what the server asked, up to the cap). */
const RETRY_CAP_MS = 250;
const retryDelay = (response: Response) => {
  const seconds = Number(response.headers.get("retry-after") ?? "1");
  const ms = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1_000 : 1_000;
  return Math.min(ms, RETRY_CAP_MS) * (0.5 + Math.random() * 0.5);
};

/** Posts the key's document until a 201, retrying 409 and 503 after their Retry-After (capped). */
async function send(port: number, key: string): Promise<Answer> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "POST",
      headers: createHeaders(key),
      body: JSON.stringify(documentFor(`event ${key}`, key)),
      signal: AbortSignal.timeout(10_000),
    });
    statuses.push(response.status);
    if (response.status === 201) {
      const body = (await response.json()) as { data?: { id?: string } };
      return {
        key,
        port,
        status: 201,
        replayed: response.headers.get("idempotent-replayed") === "true",
        id: body.data?.id,
        statuses,
      };
    }
    const text = await response.text();
    if (response.status !== 409 && response.status !== 503) {
      throw new Error(`key ${key} on port ${port}: unexpected ${response.status}: ${text.slice(0, 300)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, retryDelay(response)));
  }
  throw new Error(`key ${key} on port ${port} never got its 201: ${statuses.slice(-5).join(", ")}`);
}

describe("handler processes on a three-master Redis Cluster", () => {
  it("2 processes, 1,000 requests over 100 keys: 100 creates, one per key, the rest replays of it, on every master", async () => {
    const started = Date.now();
    onTestFailed(() => {
      for (const each of children) {
        console.error(`process ${each.child.pid} (port ${each.port}) stderr:\n${each.stderr()}`);
      }
    });
    const processes = await Promise.all([
      startHandler({ CREATE_DELAY_MS: "20" }),
      startHandler({ CREATE_DELAY_MS: "20" }),
    ]);
    const ports = processes.map((each) => each.port);
    const pids = processes.map((each) => each.child.pid);

    // Blocks of 50 requests over 5 keys, each key 10 times, alternating between the processes (and
    // each block starting on the other one); 20 in flight at a time, so that several requests for one
    // key race on both processes.
    const requests = Array.from({ length: 1_000 }, (_, index) => ({
      key: `order-${5 * Math.floor(index / 50) + (index % 5)}`,
      port: ports[(Math.floor(index / 5) + Math.floor(index / 50)) % 2]!,
    }));
    const answers: Answer[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < requests.length) {
          const { key, port } = requests[next++]!;
          answers.push(await send(port, key));
        }
      }),
    );

    const statuses = answers.flatMap((answer) => answer.statuses);
    const count = (status: number) => statuses.filter((each) => each === status).length;
    const created = processes.flatMap((each) => each.reports).filter((report) => report.event === "created");
    console.log(
      `1,000 requests over 100 keys on 2 processes and 3 masters: ${statuses.length} attempts ` +
        `(${count(201)} 201, ${count(409)} 409, ${count(503)} 503); creates per process: ` +
        `${processes.map((each) => each.reports.filter((report) => report.event === "created").length).join(" + ")}`,
    );

    // Every request finally answered 201.
    expect(answers).toHaveLength(1_000);
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
    expect(statuses.filter((status) => ![201, 409, 503].includes(status))).toEqual([]);

    // Exactly 100 creates in all, one per key, across both processes.
    expect(created).toHaveLength(100);
    const keys = Array.from({ length: 100 }, (_, index) => `order-${index}`);
    expect(new Set(created.map((report) => report.key))).toEqual(new Set(keys));

    // Per key: one first answer (not a replay) carrying the created id, and nine replays of that id.
    for (const key of keys) {
      const own = answers.filter((answer) => answer.key === key);
      expect(own).toHaveLength(10);
      const [creation] = created.filter((report) => report.key === key);
      const first = own.filter((answer) => !answer.replayed);
      expect(first, key).toHaveLength(1);
      expect(first[0]!.id).toBe(creation!.id);
      // The first answer came from the process that created it.
      expect(first[0]!.id).toMatch(new RegExp(`^P${creation!.pid}N`));
      for (const replay of own.filter((answer) => answer.replayed)) expect(replay.id, key).toBe(creation!.id);
      // Each key was sent to both processes.
      expect(new Set(own.map((answer) => answer.port)).size).toBe(2);
    }

    // Both processes created some.
    expect(new Set(created.map((report) => report.pid))).toEqual(new Set(pids));

    // The records landed on more than one master (each node asked on its own connection).
    const perNode = await keysPerNode("processes:*");
    console.log(`records per master: ${perNode.map((each) => each.length).join(" + ")}`);
    expect(perNode.flat()).toHaveLength(100);
    expect(perNode.filter((each) => each.length > 0).length).toBeGreaterThan(1);

    // Both exit by themselves when asked, having closed everything they opened.
    expect(await Promise.all(processes.map((each) => each.stop()))).toEqual([0, 0]);
    for (const each of processes) expect(each.reports.at(-1)).toMatchObject({ event: "closed" });
    console.log(`cluster cross-process run: ${Date.now() - started} ms`);
  });
});
