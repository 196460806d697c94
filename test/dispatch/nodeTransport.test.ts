/**
 * The Node transport over real sockets on 127.0.0.1 only: made-up host names are mapped to loopback
 * addresses by the test's lookup, so no packet leaves the machine. Certificates are made with the
 * openssl command line into a temporary directory and removed afterwards.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type CheckedLookup, createNodeTransport, type Transport } from "../../src/dispatch/nodeTransport.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Listening {
  readonly port: number;
  /** `connection` events seen so far. */
  connections(): number;
}

const servers: (Server | NetServer)[] = [];
const sockets = new Set<Socket>();

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          if ("closeAllConnections" in server) server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function listen(server: Server | NetServer, host = "127.0.0.1", port = 0): Promise<Listening> {
  let connections = 0;
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
  });
  server.on("secureConnection", (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

const serve = (handler: Handler, host?: string, port?: number) => listen(createServer(handler), host, port);

/** Reads a request's body, then answers as `answer` says. */
function recording(answer: (request: IncomingMessage, body: string, response: ServerResponse) => void) {
  const received: { request: IncomingMessage; body: string }[] = [];
  const handler: Handler = (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ request, body });
      answer(request, body, response);
    });
  };
  return { received, handler };
}

const ok = recording((_request, _body, response) => response.end("ok"));

/** A lookup that maps every name to `address` (127.0.0.1 by default) and counts its calls. */
const pinTo = (address = "127.0.0.1") => vi.fn<CheckedLookup>(async () => ({ address, family: 4 }));

function transportWith(lookup: CheckedLookup, ca?: string): Transport {
  const transport = createNodeTransport(ca === undefined ? { lookup } : { lookup, ca });
  if (transport === undefined) throw new Error("createNodeTransport gave undefined on Node");
  return transport;
}

const post = (body = "{}", signal?: AbortSignal): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body,
  redirect: "manual",
  ...(signal && { signal }),
});

/** The error's `cause.code`, as the dispatcher reads it. */
const causeCode = (error: unknown) => (error as { cause?: { code?: unknown } }).cause?.code;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("createNodeTransport", () => {
  it("returns a function on Node.js, undefined on Bun, Deno or without process.getBuiltinModule", () => {
    const lookup = pinTo();
    expect(createNodeTransport({ lookup })).toBeTypeOf("function");
    for (const [name, value] of [
      ["Bun", {}],
      ["Deno", {}],
      ["process", { versions: {} }],
    ] as const) {
      vi.stubGlobal(name, value);
      try {
        expect(createNodeTransport({ lookup })).toBeUndefined();
      } finally {
        vi.unstubAllGlobals();
      }
    }
    expect(createNodeTransport({ lookup })).toBeTypeOf("function");
  });
});

describe("requests and responses", () => {
  it("POSTs to a made-up host name pinned to 127.0.0.1, and reads back status, headers and body", async () => {
    const { received, handler } = recording((_request, _body, response) => {
      response.writeHead(201, "Made It", { "x-answer": "yes", "content-type": "text/plain" });
      response.end("answer body");
    });
    const { port } = await serve(handler);
    const lookup = pinTo();
    const transport = transportWith(lookup);
    const body = '{"text":"héllo 👋"}';
    const response = await transport(`http://receiver.test:${port}/hook?x=1`, {
      ...post(body),
      headers: { "content-type": "application/json", "service-signature": "v1,abc" },
    });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made It");
    expect(response.headers.get("x-answer")).toBe("yes");
    expect(await response.text()).toBe("answer body");
    expect(lookup.mock.calls).toEqual([["receiver.test"]]);
    expect(received).toHaveLength(1);
    const [{ request, body: arrived }] = received as [{ request: IncomingMessage; body: string }];
    expect(arrived).toBe(body);
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/hook?x=1");
    expect(request.headers.host).toBe(`receiver.test:${port}`);
    expect(request.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(request.headers["transfer-encoding"]).toBeUndefined();
    expect(request.headers["service-signature"]).toBe("v1,abc");
  });

  it.each([
    ["a record", { "x-one": "1", "x-two": "2" }],
    ["a Headers", new Headers({ "x-one": "1", "x-two": "2" })],
    [
      "pairs",
      [
        ["x-one", "1"],
        ["x-two", "2"],
      ],
    ],
  ] as const)("takes headers as %s, and keeps Host its own", async (_form, headers) => {
    const { port } = await serve(ok.handler);
    const before = ok.received.length;
    const init = headers instanceof Headers ? new Headers(headers) : headers;
    const response = await transportWith(pinTo())(`http://receiver.test:${port}/`, {
      method: "POST",
      headers: init as HeadersInit,
      body: "x",
    });
    await response.text();
    const { request } = ok.received[before]!;
    expect(request.headers["x-one"]).toBe("1");
    expect(request.headers["x-two"]).toBe("2");
    expect(request.headers.host).toBe(`receiver.test:${port}`);
  });

  it("gives a null body for 204 and 304, and appends multi-valued headers (set-cookie too)", async () => {
    const { port } = await serve((request, response) => {
      if (request.url === "/none") {
        response.writeHead(204, { "x-kind": "none" }).end();
        return;
      }
      if (request.url === "/same") {
        response.writeHead(304).end();
        return;
      }
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.setHeader("x-multi", ["one", "two"]);
      response.end("multi");
    });
    const transport = transportWith(pinTo());
    const none = await transport(`http://receiver.test:${port}/none`, post());
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
    expect(none.headers.get("x-kind")).toBe("none");
    const same = await transport(`http://receiver.test:${port}/same`, { method: "GET" });
    expect(same.status).toBe(304);
    expect(same.body).toBeNull();
    const multi = await transport(`http://receiver.test:${port}/multi`, post());
    expect(multi.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(multi.headers.get("x-multi")).toBe("one, two");
    expect(await multi.text()).toBe("multi");
  });

  it("never follows a redirect: the 3xx comes back as it is", async () => {
    const { received, handler } = recording((_request, _body, response) => {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
    });
    const { port } = await serve(handler);
    const lookup = pinTo();
    const response = await transportWith(lookup)(`http://receiver.test:${port}/`, post());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://169.254.169.254/latest/meta-data");
    expect(received).toHaveLength(1);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it("rejects a status outside 200 to 599 with a TypeError", async () => {
    const server = createNetServer((socket) => {
      socket.once("data", () => socket.end("HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n"));
    });
    const { port } = await listen(server);
    const error = await rejection(transportWith(pinTo())(`http://receiver.test:${port}/`, post()));
    expect(error).toBeInstanceOf(TypeError);
  });

  it("reads the body only as the consumer reads it, and a cancelled body closes its connection", async () => {
    let produced = 0;
    const total = 64 * 1024 * 1024;
    let closed = false;
    const { port } = await serve((_request, response) => {
      response.on("close", () => {
        closed = true;
      });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      new Readable({
        read() {
          produced += chunk.length;
          this.push(produced > total ? null : chunk);
        },
      }).pipe(response);
    });
    const response = await transportWith(pinTo())(`http://receiver.test:${port}/`, post());
    const reader = response.body!.getReader();
    expect((await reader.read()).value?.byteLength).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Loopback socket buffers hold a few MiB at most; the rest waits for the reader.
    expect(produced).toBeLessThan(total / 4);
    await reader.cancel();
    await vi.waitFor(() => expect(closed).toBe(true));
  });
});

describe("the checked lookup", () => {
  it("is called exactly once per request, and one connection serves both while its answer stays", async () => {
    const { received, handler } = recording((_request, _body, response) => response.end("ok"));
    const listening = await serve(handler);
    const lookup = pinTo();
    const transport = transportWith(lookup);
    for (let index = 0; index < 2; index += 1)
      await (await transport(`http://receiver.test:${listening.port}/`, post())).text();
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(received).toHaveLength(2);
    expect(listening.connections()).toBe(1);
  });

  it("rejects with the lookup's own error and connects nothing when the lookup refuses", async () => {
    const listening = await serve(ok.handler);
    const refusal = new Error("forbidden address");
    const lookup = vi.fn<CheckedLookup>(async () => {
      throw refusal;
    });
    const error = await rejection(transportWith(lookup)(`http://receiver.test:${listening.port}/`, post()));
    expect(error).toBe(refusal);
    expect(lookup).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listening.connections()).toBe(0);
  });

  it("refuses an answer that is not an IP address, without connecting", async () => {
    const listening = await serve(ok.handler);
    const lookup = vi.fn<CheckedLookup>(async () => ({ address: "localhost", family: 4 }));
    const error = await rejection(transportWith(lookup)(`http://receiver.test:${listening.port}/`, post()));
    expect(error).toBeInstanceOf(TypeError);
    expect(listening.connections()).toBe(0);
  });

  it("is consulted for IP literal hosts too, IPv6 without its brackets", async () => {
    const { received, handler } = recording((_request, _body, response) => response.end("ok"));
    const { port } = await serve(handler);
    const lookup = pinTo();
    const transport = transportWith(lookup);
    await (await transport(`http://127.0.0.1:${port}/`, post())).text();
    // [::1] is mapped to 127.0.0.1 by the lookup: proof the answer, not the literal, is connected to.
    await (await transport(`http://[::1]:${port}/`, post())).text();
    expect(lookup.mock.calls).toEqual([["127.0.0.1"], ["::1"]]);
    expect(received.map(({ request }) => request.headers.host)).toEqual([
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
    ]);
  });
});

describe("pinning against DNS rebinding, with keep-alive", () => {
  /** Answers 127.0.0.1 first, then whatever `next` says. */
  function rebinding(...next: string[]) {
    const answers = ["127.0.0.1", ...next];
    return vi.fn<CheckedLookup>(async () => ({ address: answers.shift() ?? "127.0.0.1", family: 4 }));
  }

  it("connects a request to its own answer, never over the socket kept for the previous one", async () => {
    const first = await serve(ok.handler);
    const lookup = rebinding("127.0.0.2");
    const transport = transportWith(lookup);
    await (await transport(`http://receiver.test:${first.port}/`, post())).text();
    // Nothing listens on 127.0.0.2: were the kept-alive socket to 127.0.0.1 reused, this would succeed.
    const error = await rejection(transport(`http://receiver.test:${first.port}/`, post()));
    expect(error).toBeInstanceOf(TypeError);
    expect(causeCode(error)).toBe("ECONNREFUSED");
    expect(first.connections()).toBe(1);
  });

  it("reaches the server on the new address, and reuses the old socket only when the answer returns", async () => {
    const first = await serve(ok.handler);
    // The whole of 127/8 is loopback on Linux, where the suite runs: a failure to bind here fails the test.
    const second = await serve(ok.handler, "127.0.0.2", first.port);
    const transport = transportWith(rebinding("127.0.0.2", "127.0.0.1"));
    for (let index = 0; index < 3; index += 1)
      expect(await (await transport(`http://receiver.test:${first.port}/`, post())).text()).toBe("ok");
    expect(first.connections()).toBe(1);
    expect(second.connections()).toBe(1);
  });
});

describe("errors", () => {
  it("carries Node's code in cause.code and never the URL in a message", async () => {
    // A port that was free a moment ago: nothing listens there.
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createNetServer();
      probe.listen(0, "127.0.0.1", () => {
        const free = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(free));
      });
    });
    const url = `http://receiver.test:${closedPort}/hook?token=very-secret-token`;
    const error = await rejection(transportWith(pinTo())(url, post()));
    expect(causeCode(error)).toBe("ECONNREFUSED");
    const cause = (error as { cause?: Error }).cause;
    for (const text of [String(error), String(cause), (error as Error).stack ?? ""]) {
      expect(text).not.toContain("very-secret-token");
      expect(text).not.toContain("receiver.test");
    }
  });

  it("keeps an invalid URL out of its error", async () => {
    const lookup = pinTo();
    const error = await rejection(transportWith(lookup)("http://[secret-in-a-bad-url/", post()));
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).not.toContain("secret");
    expect(JSON.stringify(error)).not.toContain("secret");
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe("abort", () => {
  it("errors the body mid-read", async () => {
    const { port } = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("first part");
    });
    const controller = new AbortController();
    const response = await transportWith(pinTo())(
      `http://receiver.test:${port}/`,
      post("{}", controller.signal),
    );
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first part");
    const reason = new DOMException("timed out", "TimeoutError");
    setTimeout(() => controller.abort(reason), 20);
    await expect(reader.read()).rejects.toBe(reason);
  });

  it("rejects soon when the server never answers", async () => {
    const { port } = await serve(() => undefined);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(
      transportWith(pinTo())(`http://receiver.test:${port}/`, post("{}", controller.signal)),
    );
    expect((error as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("rejects at once, with no lookup and no connection, when the signal is already aborted", async () => {
    const listening = await serve(ok.handler);
    const lookup = pinTo();
    const reason = new Error("gave up");
    const error = await rejection(
      transportWith(lookup)(`http://receiver.test:${listening.port}/`, post("{}", AbortSignal.abort(reason))),
    );
    expect(error).toBe(reason);
    expect(lookup).not.toHaveBeenCalled();
    expect(listening.connections()).toBe(0);
  });

  it("rejects during a slow lookup and then connects nothing", async () => {
    const listening = await serve(ok.handler);
    let answer: (value: { address: string; family: 4 }) => void = () => undefined;
    const lookup = vi.fn<CheckedLookup>(() => new Promise((resolve) => (answer = resolve)));
    const controller = new AbortController();
    const pending = transportWith(lookup)(
      `http://receiver.test:${listening.port}/`,
      post("{}", controller.signal),
    );
    controller.abort();
    expect(((await rejection(pending)) as Error).name).toBe("AbortError");
    answer({ address: "127.0.0.1", family: 4 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listening.connections()).toBe(0);
  });
});

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

describe.skipIf(!hasOpenssl)("HTTPS with a throwaway CA", () => {
  let directory: string;
  let ca: string;
  let key: string;
  let cert: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), "node-transport-"));
    const file = (name: string) => join(directory, name);
    writeFileSync(
      file("openssl.cnf"),
      [
        "[req]",
        "distinguished_name = dn",
        "prompt = no",
        "[dn]",
        "CN = nodeTransport test CA",
        "[ca_ext]",
        "basicConstraints = critical,CA:TRUE",
        "keyUsage = critical,keyCertSign,cRLSign",
        "subjectKeyIdentifier = hash",
        "[leaf_ext]",
        "basicConstraints = CA:FALSE",
        "keyUsage = critical,digitalSignature",
        "extendedKeyUsage = serverAuth",
        "subjectAltName = DNS:receiver.test,IP:127.0.0.1",
        "authorityKeyIdentifier = keyid",
        "",
      ].join("\n"),
    );
    const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: directory, stdio: "pipe" });
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    openssl(
      "req",
      "-x509",
      "-config",
      "openssl.cnf",
      "-extensions",
      "ca_ext",
      ...ec,
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "1",
    );
    openssl(
      "req",
      "-new",
      "-config",
      "openssl.cnf",
      ...ec,
      "-subj",
      "/CN=receiver.test",
      "-keyout",
      "leaf.key",
      "-out",
      "leaf.csr",
    );
    openssl(
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-set_serial",
      "2",
      "-days",
      "1",
      "-extfile",
      "openssl.cnf",
      "-extensions",
      "leaf_ext",
      "-out",
      "leaf.pem",
    );
    ca = readFileSync(file("ca.pem"), "utf8");
    key = readFileSync(file("leaf.key"), "utf8");
    cert = readFileSync(file("leaf.pem"), "utf8");
  });

  afterAll(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  async function serveTls() {
    const servernames: (string | false | null)[] = [];
    const server = createHttpsServer({ key, cert }, (request, response) => {
      servernames.push((request.socket as TLSSocket).servername);
      response.end("secure ok");
    });
    const listening = await listen(server);
    return { ...listening, servernames };
  }

  it("verifies the certificate against the host name and sends it as SNI while connecting to 127.0.0.1", async () => {
    const { port, servernames } = await serveTls();
    const lookup = pinTo();
    const response = await transportWith(lookup, ca)(`https://receiver.test:${port}/hook`, post());
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("secure ok");
    expect(lookup.mock.calls).toEqual([["receiver.test"]]);
    expect(servernames).toEqual(["receiver.test"]);
  });

  it("fails for a name the certificate does not cover", async () => {
    const { port } = await serveTls();
    const error = await rejection(transportWith(pinTo(), ca)(`https://other.test:${port}/`, post()));
    expect(error).toBeInstanceOf(TypeError);
    expect(causeCode(error)).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
  });

  it("fails without the CA (Node's roots do not know it)", async () => {
    const { port } = await serveTls();
    const error = await rejection(transportWith(pinTo())(`https://receiver.test:${port}/`, post()));
    expect(causeCode(error)).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
  });

  it("sends no SNI for an IP literal host and checks the certificate against the address", async () => {
    const { port, servernames } = await serveTls();
    const response = await transportWith(pinTo(), ca)(`https://127.0.0.1:${port}/`, post());
    expect(await response.text()).toBe("secure ok");
    expect(servernames).toEqual([false]);
  });
});
