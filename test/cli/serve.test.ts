import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEventsClient } from "../../src/client/index.js";
import { verifyWebhook } from "../../src/webhooks/index.js";
import { runCli, startCli } from "./cli.js";

const secret = "emulator-webhook-secret";
const secretFile = join(mkdtempSync(join(tmpdir(), "messaging-events-serve-")), "webhook-secret");
writeFileSync(secretFile, `${secret}\n`);
const ulid = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `messaging-events serve` and resolves once it says where it listens. */
async function serve(args: readonly string[]): Promise<Running> {
  const child = startCli(["serve", "--port", "0", ...args], {
    WEBHOOK_SECRET: secret,
    OLD_WEBHOOK_SECRET: "the-secret-before-the-rotation",
  });
  let output = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    void exited.then(() => reject(new Error(`serve ended early:\n${output}`)));
  });
  return { child, url, log: () => output, exited };
}

/** A webhook receiver that verifies with the library and fails each delivery's first attempt. */
async function receiver() {
  const attempts = new Map<string, number>();
  const verified = new Map<string, unknown>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const id = String(req.headers["service-webhook-id"]);
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      if (attempts.get(id) === 1) {
        res.writeHead(500).end();
        return;
      }
      try {
        const payload = await verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret });
        if (!verified.has(id)) verified.set(id, payload);
        res.writeHead(204).end();
      } catch {
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    attempts,
    verified,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const running: Running[] = [];
afterAll(() => {
  for (const { child } of running) if (child.exitCode === null) child.kill("SIGKILL");
});

async function until(condition: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("messaging-events serve", () => {
  it("with chaos on, every create by the library's client lands exactly once, and each webhook is delivered, verified, once", async () => {
    const hooks = await receiver();
    // Two secrets, newest first, from a file and a variable: the receiver knows only the newest,
    // so every delivery it accepts was signed with the first.
    const emulator = await serve([
      "--webhook-url",
      hooks.url,
      "--secret-file",
      secretFile,
      "--secret-env",
      "OLD_WEBHOOK_SECRET",
      "--webhook-retry-delays-ms",
      "100,100,100",
      "--chaos",
      "0.4",
      "--chaos-seed",
      "7",
    ]);
    running.push(emulator);
    const client = createEventsClient({
      baseUrl: emulator.url,
      authorization: "Bearer local",
      retry: {
        delaysMs: [20, 40, 80, 160, 320, 640, 1_280, 2_000, 2_000, 2_000, 2_000, 2_000],
        maxRetryAfterMs: 2_000,
      },
      timeoutMs: 5_000,
    });
    const count = 12;
    const created = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        index % 3 === 2
          ? client.createEvent(
              { type: "s.room.pin", content: { value: true } },
              { idempotencyKey: `key-${index}` },
            )
          : client.createEvent(
              { type: "s.message.text", content: { body: `message ${index}` } },
              { idempotencyKey: `key-${index}` },
            ),
      ),
    );
    const ids = created.map(({ data }) => data.id);
    for (const id of ids) expect(id).toMatch(ulid);
    expect(new Set(ids).size).toBe(count);
    const log = emulator.log();
    expect(log).toMatch(/chaos (503|429|drop|slow)/);
    for (let index = 0; index < count; index++) {
      const firsts = log
        .split("\n")
        .filter(
          (line) =>
            line.includes("POST /events 201") &&
            !line.includes("replayed") &&
            line.endsWith(` key=key-${index}`),
        );
      expect(firsts, `key-${index}`).toHaveLength(1);
      expect(firsts[0]).toContain(`id=${ids[index]}`);
    }
    const webhookEvents = Math.ceil((count * 2) / 3);
    await until(() => hooks.verified.size === webhookEvents);
    const bodies = [...hooks.verified.values()].map(
      (payload) => (payload as { content: { body: string } }).content.body,
    );
    expect(bodies.sort()).toEqual(
      Array.from({ length: count }, (_, index) => index)
        .filter((index) => index % 3 !== 2)
        .map((index) => `message ${index}`)
        .sort(),
    );
    expect(emulator.log()).toMatch(/webhook s\.message\.text -> endpoint-1 attempt 1: 500 retry/);
    expect(emulator.log()).toMatch(/attempt 2: 204 delivered/);
    emulator.child.kill("SIGINT");
    expect(await emulator.exited).toBe(0);
    await hooks.close();
  });

  it("answers plain fetch: 201 with a ULID, a replay with Idempotent-Replayed, 401 without credentials; shuts down cleanly on SIGTERM", async () => {
    const emulator = await serve([]);
    running.push(emulator);
    const document = { data: { type: "events", attributes: { eventType: "s.room.close", content: {} } } };
    const post = (headers: Record<string, string>, body = JSON.stringify(document)) =>
      fetch(`${emulator.url}/events`, {
        method: "POST",
        headers: { "content-type": "application/vnd.api+json", ...headers },
        body,
      });
    const first = await post({ authorization: "Bearer a", "service-idempotency-key": "fetch-1" });
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    expect((JSON.parse(firstBody) as { data: { id: string } }).data.id).toMatch(ulid);
    const again = await post({ authorization: "Bearer a", "service-idempotency-key": "fetch-1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect((await post({})).status).toBe(401);
    expect((await fetch(`${emulator.url}/health`)).status).toBe(200);

    // A request still arriving when SIGTERM comes is answered before the emulator exits.
    let finish: (() => void) | undefined;
    const slowBody = new ReadableStream<Uint8Array>({
      start(controller) {
        const text = JSON.stringify(document);
        controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
        finish = () => {
          controller.enqueue(new TextEncoder().encode(text.slice(10)));
          controller.close();
        };
      },
    });
    const inFlight = fetch(`${emulator.url}/events`, {
      method: "POST",
      headers: { "content-type": "application/vnd.api+json", authorization: "Bearer a" },
      body: slowBody,
      duplex: "half",
    } as RequestInit);
    await new Promise((resolve) => setTimeout(resolve, 300));
    emulator.child.kill("SIGTERM");
    await until(() => emulator.log().includes("SIGTERM: shutting down"));
    finish!();
    expect((await inFlight).status).toBe(201);
    expect(await emulator.exited).toBe(0);
    // The summary of the run: two creates (the one in flight included), a replay, a 401.
    expect(emulator.log()).toMatch(
      /served 4 requests \(2 created, 1 replayed, 1 refused\), no webhook attempts in \d+ seconds?\n/,
    );
    // The port is free again.
    const port = Number(new URL(emulator.url).port);
    const again2 = createServer();
    await new Promise<void>((resolve, reject) => {
      again2.once("error", reject);
      again2.listen(port, "127.0.0.1", resolve);
    });
    await new Promise<void>((resolve) => again2.close(() => resolve()));
  });

  it("answers CORS preflights for any origin, delivers s.delete as the s.message.delete webhook, and exits promptly with an idle keep-alive connection", async () => {
    const hooks = await receiver();
    const emulator = await serve([
      "--webhook-url",
      hooks.url,
      "--secret-file",
      secretFile,
      "--webhook-retry-delays-ms",
      "50",
    ]);
    running.push(emulator);
    const origin = "http://page.localhost:3000";
    const preflight = await fetch(`${emulator.url}/events`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization, service-idempotency-key",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("service-idempotency-key");
    const content = { messageId: "m-1", reason: ["any", { json: true }] };
    const created = await fetch(`${emulator.url}/events`, {
      method: "POST",
      headers: {
        origin,
        authorization: "Bearer a",
        "content-type": "application/vnd.api+json",
        "service-idempotency-key": "delete-1",
      },
      body: JSON.stringify({ data: { type: "events", attributes: { eventType: "s.delete", content } } }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe("*");
    expect(created.headers.get("access-control-expose-headers")).toContain("idempotent-replayed");
    await until(() => hooks.verified.size === 1);
    expect([...hooks.verified.values()][0]).toMatchObject({ type: "s.message.delete", version: 2, content });

    // An idle kept-alive connection (as browsers and fetch keep) must not hold the exit.
    const { Agent, request } = await import("node:http");
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      request(`${emulator.url}/health`, { agent }, (response) => {
        response.resume();
        response.on("end", resolve);
      })
        .on("error", reject)
        .end();
    });
    const started = Date.now();
    emulator.child.kill("SIGTERM");
    expect(await emulator.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
    agent.destroy();
    await hooks.close();
  });

  it("refuses webhooks without a signing secret (status 2, with the flags to use), and has no --webhook-secret-env", async () => {
    const [none, old] = await Promise.all([
      runCli(["serve", "--webhook-url", "http://127.0.0.1:9/hooks"]),
      runCli(
        ["serve", "--webhook-url", "http://127.0.0.1:9/hooks", "--webhook-secret-env", "WEBHOOK_SECRET"],
        {
          env: { WEBHOOK_SECRET: secret },
        },
      ),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--secret-env NAME or --secret-file PATH");
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('unknown option "--webhook-secret-env"');
  });

  it("--webhook-retry-delays-ms takes up to 100 waits in milliseconds, and the old --webhook-retry-schedule-ms is gone", async () => {
    const [bad, tooMany, old] = await Promise.all([
      runCli(["serve", "--webhook-retry-delays-ms", "1000,-5"]),
      runCli(["serve", "--webhook-retry-delays-ms", Array(101).fill("1").join(",")]),
      runCli(["serve", "--webhook-retry-schedule-ms", "1000"]),
    ]);
    for (const { code, stderr } of [bad, tooMany]) {
      expect(code).toBe(2);
      expect(stderr).toContain("--webhook-retry-delays-ms takes up to 100 waits in milliseconds");
    }
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('unknown option "--webhook-retry-schedule-ms"');
  });

  it("exits 2 for a port in use, as for any command line this machine cannot serve", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const { code, stderr } = await runCli(["serve", "--port", port]);
      expect(code).toBe(2);
      expect(stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it("--authorization-env: only that Authorization value is accepted; a value where the name belongs is not echoed", async () => {
    const token = "Bearer emulator-only-9d1f";
    const child = startCli(["serve", "--port", "0", "--authorization-env", "EMULATOR_TOKEN"], {
      EMULATOR_TOKEN: token,
    });
    let output = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        const found = /listening on (http:\/\/\S+)/.exec(output);
        if (found) resolve(found[1]!);
      });
      void exited.then(() => reject(new Error(`serve ended early:\n${output}`)));
    });
    running.push({ child, url, log: () => output, exited });
    const post = (authorization: string) =>
      fetch(`${url}/events`, {
        method: "POST",
        headers: { "content-type": "application/vnd.api+json", authorization },
        body: JSON.stringify({
          data: { type: "events", attributes: { eventType: "s.room.close", content: {} } },
        }),
      });
    expect((await post("Bearer someone-else")).status).toBe(401);
    expect((await post(token)).status).toBe(201);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    const misplaced = await runCli(["serve", "--authorization-env", token]);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain("not a variable name");
    expect(misplaced.stderr).not.toContain("emulator-only-9d1f");
  });
});
