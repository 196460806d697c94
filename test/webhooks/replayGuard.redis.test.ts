/**
 * Replays inside the timestamp window, refused across processes: two receiver processes share one
 * real redis-server through the replay guard; the same signed request, sent to both at once and
 * again later, is accepted exactly once. A retried delivery (new timestamp and signature) is a new
 * signature, and is told apart by `service-webhook-id` with `acceptDelivery`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookReplayGuard } from "../../src/server/index.js";
import { createRedisReplayStore } from "../../src/server/redis/index.js";
import { signWebhook } from "../../src/webhooks/index.js";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";

const source = fileURLToPath(new URL("./receiverProcess.ts", import.meta.url));
const outDir = fileURLToPath(new URL("../../.tmp/replay/", import.meta.url));
const script = `${outDir}receiverProcess.mjs`;
const secret = "whsec_replay";

interface Receiver {
  readonly child: ChildProcess;
  readonly port: number;
  readonly codes: string[];
  stop(): Promise<number | null>;
}

let redis: RedisServer;
const receivers: Receiver[] = [];

async function startReceiver(): Promise<Receiver> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, REDIS_URL: redis.url, SIGNING_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const codes: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const report = JSON.parse(buffered.slice(0, newline)) as {
          event: string;
          port?: number;
          code?: string;
        };
        buffered = buffered.slice(newline + 1);
        if (report.event === "listening") resolve(report.port!);
        if (report.event === "request") codes.push(report.code!);
      }
    });
    child.once("exit", (code) => reject(new Error(`receiver exited (${code}) before listening: ${stderr}`)));
  });
  const receiver: Receiver = {
    child,
    port,
    codes,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
  receivers.push(receiver);
  return receiver;
}

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [source],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["redis"],
    logLevel: "error",
  });
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const receiver of receivers) if (receiver.child.exitCode === null) receiver.child.kill("SIGKILL");
  await redis?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

const post = (port: number, signed: { body: string; headers: Record<string, string> }) =>
  fetch(`http://127.0.0.1:${port}/hooks`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  }).then(async (response) => ({ status: response.status, code: await response.text() }));

describe("a replay guard on one Redis, two receiver processes", () => {
  it("accepts a signed request exactly once, however often and wherever it is replayed", async () => {
    const [first, second] = await Promise.all([startReceiver(), startReceiver()]);
    const signed = await signWebhook({
      payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" } },
      secret,
    });
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 === 0 ? first!.port : second!.port, signed)),
    );
    const later = await post(second!.port, signed);
    const answers = [...burst, later];
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === "ERR_WEBHOOK_REPLAYED")).toHaveLength(20);

    // A retry of the delivery is signed anew: a new signature, accepted by the signature check.
    const retried = await signWebhook({
      payload: { type: "s.room.create", version: 2, content: { creatorId: "user-7" } },
      secret,
      timestamp: new Date(Date.now() + 1000),
    });
    expect((await post(first!.port, retried)).status).toBe(204);
    expect(await first!.stop()).toBe(0);
    expect(await second!.stop()).toBe(0);
  });

  it("tells a redelivery apart by its service-webhook-id, across connections", async () => {
    const connections = await Promise.all(
      [1, 2].map(async () => {
        const client = createClient({ url: redis.url });
        await client.connect();
        return client;
      }),
    );
    const guards = connections.map((client) =>
      createWebhookReplayGuard({ store: createRedisReplayStore({ client }) }),
    );
    const firsts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => guards[i % 2]!.acceptDelivery("01JD8X5QK3M2-endpoint-a")),
    );
    expect(firsts.filter(Boolean)).toHaveLength(1);
    expect(await guards[0]!.acceptDelivery("01JD8X5QK3M2-endpoint-b")).toBe(true);
    for (const guard of guards) await guard.close();
    for (const client of connections) await client.close();
  });
});
