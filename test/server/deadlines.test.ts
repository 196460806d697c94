/**
 * Deadlines, body parsers and CORS over real sockets on 127.0.0.1: a body trickled a byte a second and
 * a body shorter than its Content-Length answer 408; a request whose body a parser consumed answers
 * 500 at once; browsers' preflights and answers carry CORS headers only with the option.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createEventsHandler,
  createNodeListener,
  type EventsHandler,
  type EventsHandlerOptions,
} from "../../src/server/index.js";
import { authorize, countingCreate, createHeaders, documentFor } from "./support.js";

const open: { server: Server; handler: EventsHandler }[] = [];

async function serve(
  options: Partial<EventsHandlerOptions> = {},
  before?: (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => Promise<void>,
) {
  const handler = createEventsHandler({ authorize, create: countingCreate().create, ...options });
  const listener = createNodeListener(handler);
  const server = createServer((req, res) => {
    if (before === undefined) listener(req, res);
    else void before(req, res).then(() => listener(req, res));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  open.push({ server, handler });
  return { handler, port: (server.address() as AddressInfo).port };
}

afterEach(async () => {
  for (const { server, handler } of open.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await handler.close({ timeoutMs: 100 });
  }
});

/** Writes raw HTTP and resolves with what came back once the server closes or `untilMs` passes. */
function raw(port: number, head: string, trickle: string, intervalMs: number, untilMs: number) {
  return new Promise<{ text: string; elapsedMs: number }>((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let text = "";
    let index = 0;
    const timer = setInterval(() => {
      if (index < trickle.length && !socket.destroyed) socket.write(trickle[index++]!);
    }, intervalMs);
    const done = () => {
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, elapsedMs: Date.now() - started });
    };
    const limit = setTimeout(done, untilMs);
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
      if (/\r\n\r\n[\s\S]*\}\]\}/.test(text)) done();
    });
    socket.on("close", done);
    socket.on("error", done);
    socket.write(head);
  });
}

function headLines(port: number, extra: string) {
  const headers = Object.entries(createHeaders("slow-1"))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `POST /events HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${headers}${extra}\r\n`;
}

describe("body deadline over a socket", () => {
  it("answers 408 ERR_BODY_TIMEOUT to a chunked body sent a byte a second", async () => {
    const { port } = await serve({ bodyTimeoutMs: 1_500 });
    const body = JSON.stringify(documentFor("slow"));
    const chunked = [...body].map((char) => `1\r\n${char}\r\n`).join("");
    const { text, elapsedMs } = await raw(
      port,
      headLines(port, "transfer-encoding: chunked\r\n"),
      chunked,
      200,
      10_000,
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"code":"ERR_BODY_TIMEOUT"');
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it("answers 408 to a Content-Length: 500 request that sends 50 bytes", async () => {
    const { port } = await serve({ bodyTimeoutMs: 1_000 });
    const { text, elapsedMs } = await raw(
      port,
      `${headLines(port, "content-length: 500\r\n")}${"x".repeat(50)}`,
      "",
      1_000,
      10_000,
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"code":"ERR_BODY_TIMEOUT"');
    expect(text.toLowerCase()).toContain("connection: close");
    expect(elapsedMs).toBeLessThan(5_000);
  });
});

describe("createNodeListener behind a body parser", () => {
  it("answers 500 ERR_BODY_ALREADY_READ at once, naming the fix, when the body was consumed, and tells onError", async () => {
    const reported: { stage: string; status: number | undefined; message: string }[] = [];
    const onError = (error: unknown, context: { stage: string; status: number | undefined }) =>
      reported.push({ stage: context.stage, status: context.status, message: String(error) });
    const { port } = await serve({ onError }, async (req) => {
      // What express.json does: read the whole body, then leave the parsed value in req.body.
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      req.body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    });
    const started = Date.now();
    const response = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "POST",
      headers: createHeaders("parsed-1"),
      body: JSON.stringify(documentFor("parsed")),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(response.status).toBe(500);
    const { errors } = (await response.json()) as { errors: { code: string; detail: string }[] };
    expect(errors[0]!.code).toBe("ERR_BODY_ALREADY_READ");
    expect(errors[0]!.detail).toContain("before any body parser");
    expect(reported).toEqual([
      { stage: "body", status: 500, message: expect.stringContaining("before any body parser") },
    ]);
  });

  it("still streams when a parser only left {} (another media type, nothing read)", async () => {
    const { port } = await serve({}, async (req) => {
      req.body = {};
    });
    const response = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "POST",
      headers: createHeaders("unparsed-1"),
      body: JSON.stringify(documentFor("unparsed", "unparsed-1")),
    });
    expect(response.status).toBe(201);
  });
});

describe("CORS over a socket", () => {
  const origin = "http://app.localhost:5173";

  it("answers a preflight 204 and exposes the headers a client reads, for an allowed origin", async () => {
    const { port } = await serve({ cors: { origins: [origin], maxAgeMs: 120_000 } });
    const preflight = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization, service-idempotency-key",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "content-type, accept, authorization, service-idempotency-key, traceparent, tracestate",
    );
    expect(preflight.headers.get("access-control-max-age")).toBe("120");
    const created = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "POST",
      headers: createHeaders("cors-1", { origin }),
      body: JSON.stringify(documentFor("cors", "cors-1")),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe(origin);
    expect(created.headers.get("access-control-expose-headers")).toBe(
      "location, retry-after, idempotent-replayed",
    );
    const other = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "OPTIONS",
      headers: { origin: "http://evil.localhost", "access-control-request-method": "POST" },
    });
    expect(other.status).toBe(405);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("sends no CORS header without the option", async () => {
    const { port } = await serve();
    const preflight = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(405);
    const names: string[] = [];
    preflight.headers.forEach((_value, name) => {
      names.push(name);
    });
    expect(names.filter((name) => name.startsWith("access-control"))).toEqual([]);
  });

  it("echoes the origin and allows credentials with allowCredentials, and takes a function", async () => {
    const { port } = await serve({
      cors: { origins: (value) => value.endsWith(".localhost:5173"), allowCredentials: true },
    });
    const preflight = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
    expect(preflight.headers.get("access-control-max-age")).toBe("600");
    expect(preflight.headers.get("vary")).toContain("origin");
  });
});

describe("401 over a socket", () => {
  it("carries WWW-Authenticate, Bearer by default or the scheme given", async () => {
    const { port } = await serve();
    const response = await fetch(`http://127.0.0.1:${port}/events`, {
      method: "POST",
      headers: createHeaders("u-1", { authorization: "Bearer wrong" }),
      body: "{}",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    const custom = await serve({ authenticationScheme: 'Bearer realm="events"' });
    const other = await fetch(`http://127.0.0.1:${custom.port}/events`, {
      method: "POST",
      headers: createHeaders("u-1", { authorization: "Bearer wrong" }),
      body: "{}",
    });
    expect(other.headers.get("www-authenticate")).toBe('Bearer realm="events"');
  });
});
