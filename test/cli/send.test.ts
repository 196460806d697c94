import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.js";

const credentials = "Bearer cli-send-credential-91c2";
const env = { TOKEN: credentials };
const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
let refuse = false;
const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8").on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    received.push({ headers: req.headers, body });
    const sent = JSON.parse(body) as { data: Record<string, unknown> };
    res.setHeader("content-type", "application/vnd.api+json");
    if (refuse) {
      // A careless service that echoes the credentials: the program must not print them.
      res.statusCode = 422;
      res.end(
        JSON.stringify({ errors: [{ status: "422", code: "NOPE", detail: `refused for ${credentials}` }] }),
      );
      return;
    }
    res.statusCode = 201;
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
      ["send", "--base-url", baseUrl, "--credentials-env", "TOKEN", "--idempotency-key", "cli-key-1"],
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

  it("prints the JSON:API errors of a refusal, exits 1, and never prints the credentials", async () => {
    refuse = true;
    try {
      const { code, stdout, stderr } = await runCli(
        ["send", "--base-url", baseUrl, "--credentials-env", "TOKEN"],
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
      runCli(["send", "--base-url", baseUrl, "--credentials-env", "TOKEN"], {
        input: '{"type":"s.message.text","content":{"body":7}}',
        env,
      }),
      runCli(["send", "--base-url", baseUrl, "--credentials", credentials], { input: event }),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("/content/body");
    expect(received.length).toBe(before);
    expect(onArgv.code).toBe(2);
    expect(onArgv.stderr).toContain("--credentials-env NAME");
  });
});
