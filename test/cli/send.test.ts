import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.js";

const credentials = "Bearer cli-send-credential-91c2";
const env = { TOKEN: credentials };
const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
let refuse = false;
let keyReused = false;
const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8").on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    received.push({ headers: req.headers, body });
    const sent = JSON.parse(body) as { data: Record<string, unknown> };
    res.setHeader("content-type", "application/vnd.api+json");
    if (keyReused) {
      res.statusCode = 422;
      res.end(
        JSON.stringify({
          errors: [
            {
              status: "422",
              code: "ERR_IDEMPOTENCY_KEY_REUSED",
              detail: "this key was used for another document",
            },
          ],
        }),
      );
      return;
    }
    if (refuse) {
      // A careless service that echoes the credentials: the program must not print them.
      res.statusCode = 422;
      res.end(
        JSON.stringify({ errors: [{ status: "422", code: "NOPE", detail: `refused for ${credentials}` }] }),
      );
      return;
    }
    res.statusCode = 201;
    if (req.headers["service-idempotency-key"] === "replayed-key")
      res.setHeader("idempotent-replayed", "true");
    res.end(JSON.stringify({ data: { ...sent.data, id: "01JD8X5QK3M2" } }));
  });
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const event = '{"type":"s.message.text","content":{"body":"Hello"}}';

describe("messaging-events send", () => {
  it("creates the event with the client and prints the created resource", async () => {
    const { code, stdout } = await runCli(
      ["send", "--base-url", baseUrl, "--authorization-env", "TOKEN", "--idempotency-key", "cli-key-1"],
      { input: event, env },
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      data: {
        id: "01JD8X5QK3M2",
        type: "events",
        attributes: { eventType: "s.message.text", content: { body: "Hello" } },
        meta: { "idempotency-key": "cli-key-1" },
      },
    });
    const last = received.at(-1)!;
    expect(last.headers.authorization).toBe(credentials);
    expect(last.headers["service-idempotency-key"]).toBe("cli-key-1");
  });

  it("says on standard error when the service had created the event before (a replay)", async () => {
    const [fresh, replay] = await Promise.all([
      runCli(
        ["send", "--base-url", baseUrl, "--authorization-env", "TOKEN", "--idempotency-key", "fresh-key"],
        {
          input: event,
          env,
        },
      ),
      runCli(
        ["send", "--base-url", baseUrl, "--authorization-env", "TOKEN", "--idempotency-key", "replayed-key"],
        {
          input: event,
          env,
        },
      ),
    ]);
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toBe("");
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ data: { id: "01JD8X5QK3M2" } });
    expect(replay.stderr).toContain("had created this event before with the key replayed-key");
  });

  it("prints the JSON:API errors of a refusal, exits 1, and never prints the credentials", async () => {
    refuse = true;
    try {
      const { code, stdout, stderr } = await runCli(
        ["send", "--base-url", baseUrl, "--authorization-env", "TOKEN"],
        {
          input: event,
          env,
        },
      );
      expect(code).toBe(1);
      expect(JSON.parse(stdout)).toMatchObject({ errors: [{ status: "422", code: "NOPE" }] });
      expect(stderr).toContain("ERR_EVENTS_API");
      expect(stdout + stderr).not.toContain("cli-send-credential-91c2");
    } finally {
      refuse = false;
    }
  });

  it("sends nothing for invalid content, and refuses credentials on the command line", async () => {
    const before = received.length;
    const [invalid, onArgv] = await Promise.all([
      runCli(["send", "--base-url", baseUrl, "--authorization-env", "TOKEN"], {
        input: '{"type":"s.message.text","content":{"body":7}}',
        env,
      }),
      runCli(["send", "--base-url", baseUrl, "--credentials", credentials], { input: event }),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("/content/body");
    expect(received.length).toBe(before);
    expect(onArgv.code).toBe(2);
    expect(onArgv.stderr).toContain("--authorization-env NAME");
  });

  it("never echoes a token given where the variable name belongs", async () => {
    const { code, stdout, stderr } = await runCli(
      ["send", "--base-url", baseUrl, "--authorization-env", credentials],
      {
        input: event,
      },
    );
    expect(code).toBe(2);
    expect(stderr).toContain("not a variable name");
    expect(stdout + stderr).not.toContain("cli-send-credential-91c2");
  });

  it("a key the service says was used for another event: no advice to retry with it, but to take a new one", async () => {
    keyReused = true;
    try {
      const { code, stderr } = await runCli(
        ["send", "--base-url", baseUrl, "--authorization-env", "TOKEN", "--idempotency-key", "used-key"],
        { input: event, env },
      );
      expect(code).toBe(1);
      expect(stderr).toContain("new --idempotency-key");
      expect(stderr).not.toContain("retry with --idempotency-key used-key");
    } finally {
      keyReused = false;
    }
  });

  it("a network failure: says how many attempts, in English, and the cause (the refused address)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { code, stderr } = await runCli(
      [
        "send",
        "--base-url",
        `http://127.0.0.1:${port}`,
        "--authorization-env",
        "TOKEN",
        "--retries",
        "0",
        "--idempotency-key",
        "net-key",
      ],
      { input: event, env },
    );
    expect(code).toBe(1);
    expect(stderr).toContain("gave up after 1 attempt;");
    expect(stderr).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(stderr).toContain("retry with --idempotency-key net-key");
  });
});
