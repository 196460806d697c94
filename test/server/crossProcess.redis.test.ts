/**
 * Handler processes sharing one real redis-server: 200 concurrent requests over 20 keys across two
 * processes, a holder killed inside create, and Redis killed mid-run. Creates are counted from the
 * processes' own reports; every child must exit by itself when asked, proving nothing is left open.
 */

import { once } from "node:events";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";
import { bundleChild, type ReportingChild, startReportingChild } from "../support/reportingChild.js";
import { createHeaders, documentFor, snapshot } from "./support.js";

const source = fileURLToPath(new URL("./handlerProcess.ts", import.meta.url));
const outDir = fileURLToPath(new URL("../../.tmp/server/", import.meta.url));
// Bundled once, so that each process starts in well under a second (redis stays an import).
const script = `${outDir}handlerProcess.mjs`;

interface Report {
  readonly event: string;
  readonly key?: string;
  readonly id?: string;
  readonly port?: number;
  readonly pid: number;
}

type HandlerProcess = ReportingChild<Report>;

let redis: RedisServer;
const children: HandlerProcess[] = [];

beforeAll(async () => {
  await bundleChild(source, script);
  redis = await startRedisServer();
});

afterEach(async () => {
  for (const process of children.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill("SIGKILL");
  }
});

afterAll(async () => {
  await redis?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

async function startHandler(env: Record<string, string> = {}): Promise<HandlerProcess> {
  const handle = await startReportingChild<Report>(
    script,
    { REDIS_URL: redis.url, ...env },
    "handler process",
  );
  children.push(handle);
  return handle;
}

const post = (port: number, key: string) =>
  fetch(`http://127.0.0.1:${port}/events`, {
    method: "POST",
    headers: createHeaders(key),
    body: JSON.stringify(documentFor(`event ${key}`, key)),
    signal: AbortSignal.timeout(10_000),
  });

/** Sends until a 201, retrying 409 and 5xx like a client; returns the final answer and the statuses seen. */
async function untilCreated(ports: readonly number[], key: string, start = 0) {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 400; attempt++) {
    const response = await post(ports[(start + attempt) % ports.length]!, key);
    statuses.push(response.status);
    if (response.status === 201) return { snapshot: await snapshot(response), statuses };
    await response.body?.cancel();
    if (response.status !== 409 && response.status < 500) throw new Error(`unexpected ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
  }
  throw new Error(`key ${key} never completed: ${statuses.slice(-5).join(", ")}`);
}

const createdFor = (processes: readonly HandlerProcess[], key: string) =>
  processes
    .flatMap((each) => each.reports)
    .filter((report) => report.event === "created" && report.key === key);

describe("handler processes sharing one Redis", () => {
  it("200 concurrent requests over 20 keys on two processes: exactly 20 creates, 0 lost, identical answers per key", async () => {
    const processes = await Promise.all([
      startHandler({ CREATE_DELAY_MS: "30" }),
      startHandler({ CREATE_DELAY_MS: "30" }),
    ]);
    const ports = processes.map((each) => each.port);
    const keys = Array.from({ length: 20 }, (_, index) => `cross-${index}`);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => {
        const key = keys[index % 20]!;
        return untilCreated(ports, key, index).then((result) => ({ key, ...result }));
      }),
    );
    expect(results).toHaveLength(200);
    const statuses = results.flatMap((result) => result.statuses);
    const count = (status: number) => statuses.filter((each) => each === status).length;
    console.log(
      `200 requests over 20 keys on 2 processes: ${statuses.length} attempts (${count(201)} 201, ${count(409)} 409, ${count(503)} 503)`,
    );
    for (const key of keys) {
      expect(createdFor(processes, key)).toHaveLength(1);
      const answers = new Set(
        results.filter((result) => result.key === key).map((result) => result.snapshot),
      );
      expect(answers.size).toBe(1);
      expect([...answers][0]).toContain(`"idempotency-key":"${key}"`);
    }
    const total = processes.flatMap((each) => each.reports).filter((report) => report.event === "created");
    expect(total).toHaveLength(20);
    // Both processes created events: the work was really shared.
    expect(new Set(total.map((report) => report.pid)).size).toBe(2);
    expect(await Promise.all(processes.map((each) => each.stop()))).toEqual([0, 0]);
  });

  it("a holder killed inside create: the key is taken over after its lease and completes once", async () => {
    const holder = await startHandler({ CREATE_DELAY_MS: "hang", LEASE_MS: "600" });
    const survivor = await startHandler({ LEASE_MS: "600" });
    const pending = post(holder.port, "killed-1").catch(() => undefined);
    while (!holder.reports.some((report) => report.event === "create-started")) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    holder.child.kill("SIGKILL");
    await once(holder.child, "exit");
    await pending;
    const first = await post(survivor.port, "killed-1");
    expect(first.status).toBe(409);
    expect(first.headers.get("retry-after")).toBe("1");
    const { statuses } = await untilCreated([survivor.port], "killed-1");
    expect(statuses.at(-1)).toBe(201);
    expect(createdFor([holder, survivor], "killed-1")).toHaveLength(1);
    const replay = await post(survivor.port, "killed-1");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(createdFor([holder, survivor], "killed-1")).toHaveLength(1);
    expect(await survivor.stop()).toBe(0);
  });

  it("Redis killed mid-run: 503 with Retry-After, never a hang or a wrong replay, and recovery after restart", async () => {
    const processes = await Promise.all([
      startHandler({ LEASE_MS: "1000" }),
      startHandler({ LEASE_MS: "1000" }),
    ]);
    const ports = processes.map((each) => each.port);
    const before = await untilCreated(ports, "outage-before");
    await redis.kill();
    const during = await Promise.all(
      ["outage-1", "outage-2", "outage-before"].map(async (key, index) => {
        const started = Date.now();
        const response = await post(ports[index % 2]!, key);
        return {
          key,
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          ms: Date.now() - started,
          body: await response.text(),
        };
      }),
    );
    for (const answer of during) {
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe("1");
      expect(answer.ms).toBeLessThan(3_000);
      expect(answer.body).not.toContain("redis://");
    }
    expect(createdFor(processes, "outage-1")).toHaveLength(0);
    await redis.restart();
    for (const key of ["outage-1", "outage-2"]) {
      const after = await untilCreated(ports, key);
      expect(after.snapshot).toContain(`"idempotency-key":"${key}"`);
      expect(createdFor(processes, key)).toHaveLength(1);
      // Replays after the restart are of this key's own event.
      const replay = await post(ports[1]!, key);
      expect(await snapshot(replay)).toBe(after.snapshot);
    }
    expect(before.snapshot).toContain('"idempotency-key":"outage-before"');
    expect(await Promise.all(processes.map((each) => each.stop()))).toEqual([0, 0]);
  });
});
