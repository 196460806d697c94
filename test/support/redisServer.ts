/**
 * A real `redis-server` for the Redis suites (`npm run test:redis`): started on a free loopback port
 * with persistence off, stopped by its PID; or a Redis Cluster of three such masters
 * (`startRedisCluster`), joined with `redis-cli --cluster create`. It never skips: when a server
 * cannot start, the suite fails with the reason (install them with `apt-get install redis-server`,
 * which ships `redis-cli` too, as `.ci/run` does).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";
export const REDIS_CLI = process.env.REDIS_CLI ?? "/usr/bin/redis-cli";

export interface RedisServer {
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** `redis://127.0.0.1:<port>`, for node-redis's `createClient({ url })`. */
  readonly url: string;
  /** The PID of the running server (changes after `restart`). */
  readonly pid: number;
  /** Stops the server abruptly (SIGKILL), as a crash or an outage would. Idempotent. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (persistence is off). */
  restart(): Promise<void>;
  /** Stops the server (SIGTERM, then SIGKILL) and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends PING until the server answers PONG, or fails after `timeoutMs`. */
async function waitForPong(port: number, child: ChildProcess, output: () => string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `redis-server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`,
      );
    }
    const answer = await new Promise<string>((resolve) => {
      const socket = new Socket();
      let data = "";
      socket.setTimeout(500, () => socket.destroy());
      socket.on("data", (chunk) => {
        data += chunk.toString("latin1");
        if (data.includes("\r\n")) socket.end();
      });
      socket.on("close", () => resolve(data));
      socket.on("error", () => resolve(""));
      socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    });
    if (answer.startsWith("+PONG")) return;
    if (Date.now() > deadline)
      throw new Error(`redis-server on port ${port} did not answer PING:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function launch(port: number, extra: readonly string[] = []): { child: ChildProcess; output: () => string } {
  const child = spawn(
    REDIS_SERVER,
    [
      ...extra,
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--protected-mode",
      "yes",
      "--daemonize",
      "no",
      "--loglevel",
      "warning",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  return { child, output: () => log };
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Starts a `redis-server` on a free port, or throws with the reason (never skips). */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let current: ReturnType<typeof launch>;
  const start = async () => {
    let spawnError: Error | undefined;
    current = launch(port);
    current.child.once("error", (error) => {
      spawnError = error;
    });
    try {
      await waitForPong(port, current.child, () => `${spawnError?.message ?? ""}\n${current.output()}`);
    } catch (error) {
      await terminate(current.child, "SIGKILL").catch(() => undefined);
      const hint = spawnError
        ? `could not run ${REDIS_SERVER} (${spawnError.message}); install it: apt-get install redis-server`
        : String(error);
      throw new Error(`The Redis suites need a real redis-server and it did not start: ${hint}`);
    }
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return current.child.pid ?? -1;
    },
    kill: () => terminate(current.child, "SIGKILL"),
    restart: async () => {
      await terminate(current.child, "SIGKILL");
      await start();
    },
    stop: () => terminate(current.child, "SIGTERM"),
  };
}

export interface RedisCluster {
  /** The masters, each on 127.0.0.1: its port, its `redis://` URL and its PID. */
  readonly nodes: readonly { readonly port: number; readonly url: string; readonly pid: number }[];
  /** The nodes as node-redis's `createCluster({ rootNodes })` takes them. */
  readonly rootNodes: { url: string }[];
  /** Stops every node by its PID (SIGTERM, then SIGKILL) and removes their cluster files. Idempotent. */
  stop(): Promise<void>;
}

/** Runs `redis-cli` with `args`, or throws with the reason and how to install it. */
function redisCli(args: readonly string[], timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(REDIS_CLI, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new Error(
          missing
            ? `The Redis Cluster suite needs ${REDIS_CLI} and it is missing; install it: apt-get install redis-server`
            : `redis-cli ${args.join(" ")} failed: ${error.message}\n${stdout}${stderr}`,
        ),
      );
    });
  });
}

/**
 * Starts a Redis Cluster of `masters` masters (three unless told) and no replicas, each a
 * `redis-server --cluster-enabled yes` on a free loopback port, joins them with
 * `redis-cli --cluster create` and waits until every node reports `cluster_state:ok`. Throws with
 * the reason (never skips), after stopping whatever it started.
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), "messaging-events-cluster-"));
  const started: { port: number; child: ChildProcess; output: () => string }[] = [];
  const stop = async () => {
    await Promise.all(started.map(({ child }) => terminate(child, "SIGTERM")));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < masters; index++) {
      const port = await freePort();
      const node = launch(port, [
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        join(dir, `nodes-${port}.conf`),
        "--cluster-node-timeout",
        "5000",
        "--dir",
        dir,
      ]);
      let spawnError: Error | undefined;
      node.child.once("error", (error) => {
        spawnError = error;
      });
      started.push({ port, ...node });
      await waitForPong(port, node.child, () => `${spawnError?.message ?? ""}\n${node.output()}`).catch(
        (error: unknown) => {
          throw new Error(
            spawnError
              ? `The Redis Cluster suite needs ${REDIS_SERVER} and it did not start (${spawnError.message}); install it: apt-get install redis-server`
              : `The Redis Cluster suite needs a real redis-server and it did not start: ${String(error)}`,
          );
        },
      );
    }
    await redisCli([
      "--cluster",
      "create",
      ...started.map(({ port }) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    const deadline = Date.now() + 20_000;
    for (const { port } of started) {
      for (;;) {
        const info = await redisCli(["-h", "127.0.0.1", "-p", String(port), "CLUSTER", "INFO"]);
        if (info.includes("cluster_state:ok")) break;
        if (Date.now() > deadline) {
          throw new Error(`the Redis Cluster node on port ${port} never reported cluster_state:ok:\n${info}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes: started.map(({ port, child }) => ({
      port,
      url: `redis://127.0.0.1:${port}`,
      pid: child.pid ?? -1,
    })),
    rootNodes: started.map(({ port }) => ({ url: `redis://127.0.0.1:${port}` })),
    stop,
  };
}
