/**
 * The inspector's routes over loopback, as any client (or a web page elsewhere) reaches them: the
 * emulator's own address only (DNS rebinding), actions only from its own page, a strict policy on
 * every answer, a bounded history, no secret in what it sends, and `--no-inspector`.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli.js";
import { type RunningEmulator, SECRET, serve } from "./emulator.js";

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request with exactly the headers given (a Host of our choosing included). */
function call(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; readMs?: number } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? "GET",
        headers: options.headers,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk;
        });
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        res.on("end", done);
        // An event stream never ends: read it for a while.
        if (options.readMs !== undefined)
          setTimeout(() => {
            req.destroy();
            done();
          }, options.readMs);
      },
    );
    req.on("error", (error) => (options.readMs === undefined ? reject(error) : undefined));
    req.end(options.body);
  });
}

const action = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", "x-inspector-action": "1", ...headers },
  body: JSON.stringify(body),
});

describe("the inspector's routes", () => {
  let emulator: RunningEmulator;
  const authorization = "Bearer never-shown-token";

  beforeAll(async () => {
    emulator = await serve(["--inspector-history", "3"]);
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("serves the page, its script and its style under a strict policy, with no inline script", async () => {
    const page = await call(emulator.url, "/_inspector");
    expect(page.status).toBe(200);
    const policy = String(page.headers["content-security-policy"]);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe");
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.body).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
    const script = await call(emulator.url, "/_inspector/inspector.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(script.body).not.toMatch(/\beval\(|new Function\(/);
    expect((await call(emulator.url, "/_inspector/inspector.css")).status).toBe(200);
  });

  it("answers only at its own address: another name (DNS rebinding) is refused", async () => {
    const port = new URL(emulator.url).port;
    for (const host of [`attacker.example:${port}`, `127.0.0.1.attacker.example:${port}`, "127.0.0.1:1"]) {
      expect((await call(emulator.url, "/_inspector", { headers: { host } })).status).toBe(421);
      expect(
        (await call(emulator.url, "/_inspector/stream", { headers: { host }, readMs: 300 })).status,
      ).toBe(421);
    }
    expect((await call(emulator.url, "/_inspector", { headers: { host: `localhost:${port}` } })).status).toBe(
      200,
    );
  });

  it("takes actions only from its own page", async () => {
    const send = { type: "s.receipt", content: {} };
    expect(
      (
        await call(emulator.url, "/_inspector/api/send", {
          ...action(send),
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(403);
    const port = new URL(emulator.url).port;
    expect(
      (
        await call(
          emulator.url,
          "/_inspector/api/send",
          action(send, { origin: "http://attacker.example", host: `127.0.0.1:${port}` }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await call(
          emulator.url,
          "/_inspector/api/redeliver",
          action({ deliveryId: "x" }, { "sec-fetch-site": "cross-site" }),
        )
      ).status,
    ).toBe(403);
    // A preflight for the action header gets no CORS approval.
    const preflight = await call(emulator.url, "/_inspector/api/send", {
      method: "OPTIONS",
      headers: { origin: "http://attacker.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    const sent = await call(emulator.url, "/_inspector/api/send", action(send));
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body)).toMatchObject({ status: 201 });
    expect(
      (await call(emulator.url, "/_inspector/api/redeliver", action({ deliveryId: "nope" }))).status,
    ).toBe(404);
  });

  it("keeps the newest --inspector-history records, and never a secret or an Authorization value", async () => {
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${emulator.url}/events`, {
        method: "POST",
        headers: { "content-type": "application/vnd.api+json", authorization },
        body: JSON.stringify({
          data: { type: "events", attributes: { eventType: "s.receipt", content: {} } },
        }),
      });
      expect(response.status).toBe(201);
    }
    const stream = await call(emulator.url, "/_inspector/stream", { readMs: 500 });
    expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
    const snapshot = JSON.parse(/^data: (.*)$/m.exec(stream.body)![1]!) as {
      limits: { historySize: number; historyBytes: number };
      records: { kind: string; headers?: [string, string][] }[];
    };
    expect(snapshot.limits.historySize).toBe(3);
    expect(snapshot.limits.historyBytes).toBe(16 * 1024 * 1024);
    expect(snapshot.records).toHaveLength(3);
    expect(snapshot.records.every((record) => record.kind === "request")).toBe(true);
    expect(snapshot.records[0]!.headers).toContainEqual(["authorization", "(hidden)"]);
    expect(stream.body).not.toContain("never-shown-token");
    expect(stream.body).not.toContain(SECRET);
  });
});

describe("serve --no-inspector", () => {
  it("serves no page and prints none", async () => {
    const emulator = await serve(["--no-inspector"]);
    try {
      expect(emulator.log()).not.toContain("inspector");
      expect((await call(emulator.url, "/_inspector")).status).toBe(404);
    } finally {
      await emulator.stop();
    }
  });

  it("refuses --inspector-history with it, and a history outside 1 to 100000", async () => {
    const both = await runCli(["serve", "--no-inspector", "--inspector-history", "10"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--inspector-history");
    const zero = await runCli(["serve", "--inspector-history", "0"]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("--inspector-history must be a whole number from 1 to 100000");
  });
});
