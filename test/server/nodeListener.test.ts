/**
 * The handler behind createNodeListener on a real node:http server on 127.0.0.1: every status of the
 * table, repeated headers, a body cut at the limit, and 200 concurrent retrying requests over 20 keys.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsHandler, createNodeListener, type EventsHandler } from "../../src/server/index.js";
import { statusCases } from "./statusCases.js";
import { authorize, countingCreate, createHeaders, documentFor, MEDIA_TYPE } from "./support.js";

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Sends one request with node:http, so headers can repeat exactly as listed. */
function send(
  port: number,
  options: {
    method?: string;
    path?: string;
    headers: readonly (readonly [string, string])[];
    body?: string | Uint8Array;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "POST",
        path: options.path ?? "/events",
        headers: groupHeaders(options.headers),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** Headers for node:http: a repeated name becomes an array, which it sends as repeated lines. */
function groupHeaders(headers: readonly (readonly [string, string])[]): Record<string, string | string[]> {
  const grouped: Record<string, string[]> = {};
  for (const [name, value] of headers) grouped[name] = [...(grouped[name] ?? []), value];
  return Object.fromEntries(
    Object.entries(grouped).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]),
  );
}

let server: Server;
let handler: EventsHandler;
let port: number;
const counting = countingCreate(5);

beforeAll(async () => {
  handler = createEventsHandler({ authorize, create: counting.create, maxBodyBytes: 1000 });
  server = createServer(createNodeListener(handler));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await handler.close();
});

describe("createNodeListener on node:http", () => {
  it.each(statusCases.map((entry) => [entry.name, entry] as const))("%s", async (_name, entry) => {
    const response = await send(port, {
      method: entry.method ?? "POST",
      path: entry.path ?? "/events",
      headers: entry.headers,
      ...(entry.method === "GET" ? {} : { body: entry.body ?? "" }),
    });
    expect(response.status).toBe(entry.status);
    expect(response.headers["content-type"]).toBe(MEDIA_TYPE);
    for (const [name, value] of Object.entries(entry.responseHeaders ?? {})) {
      expect(response.headers[name]).toBe(value);
    }
    if (entry.code) {
      const { errors } = JSON.parse(response.body) as { errors: { code: string }[] };
      expect(errors.map((error) => error.code)).toContain(entry.code);
    }
  });

  it("answers a body far over the limit and closes the connection instead of reading it all", async () => {
    const response = await send(port, {
      headers: Object.entries(createHeaders()),
      body: new Uint8Array(5 * 1024 * 1024).fill(0x20),
    }).catch((error: unknown): RawResponse => ({ status: -1, headers: {}, body: String(error) }));
    // The client may see the answer or a reset while it is still sending: never a created event.
    expect([413, -1]).toContain(response.status);
    if (response.status === 413) expect(response.headers.connection).toBe("close");
  });

  it("streams a chunked body to the handler", async () => {
    const body = JSON.stringify(documentFor("chunked", "k-chunked"));
    const response = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/events",
          headers: createHeaders("k-chunked"),
          agent: false,
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      for (let i = 0; i < body.length; i += 7) request.write(body.slice(i, i + 7));
      request.end();
    });
    expect(response).toBe(201);
  });

  it("200 concurrent requests over 20 keys, retrying on 409 and 5xx: exactly 20 creates, identical answers per key", async () => {
    const before = counting.calls.length;
    const keys = Array.from({ length: 20 }, (_, index) => `conc-${index}`);
    const attempt = async (key: string): Promise<string> => {
      for (let tries = 0; tries < 200; tries++) {
        const response = await send(port, {
          headers: Object.entries(createHeaders(key)),
          body: JSON.stringify(documentFor(`event ${key}`, key)),
        });
        if (response.status === 201) return response.body;
        expect([409, 503]).toContain(response.status);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
      }
      throw new Error(`key ${key} never completed`);
    };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => {
        const key = keys[index % 20]!;
        return attempt(key).then((body) => [key, body] as const);
      }),
    );
    expect(counting.calls.length - before).toBe(20);
    const byKey = new Map<string, Set<string>>();
    for (const [key, body] of results) byKey.set(key, (byKey.get(key) ?? new Set()).add(body));
    expect(byKey.size).toBe(20);
    for (const bodies of byKey.values()) expect(bodies.size).toBe(1);
    const ids = new Set(results.map(([, body]) => (JSON.parse(body) as { data: { id: string } }).data.id));
    expect(ids.size).toBe(20);
  });
});
