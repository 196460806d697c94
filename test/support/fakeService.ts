/**
 * A stand-in for the messaging service on loopback, with fault injection: it creates events
 * idempotently (a completed key answers with the stored response; a key reused with another
 * document gets 422 with ERR_IDEMPOTENCY_KEY_REUSED), and can drop the connection, stall past the
 * client's time-out, answer any status (503, 429, 409 with Retry-After for a key in flight, 3xx with
 * a Location, ...) on command, flood a body past any cap, or run a test's own handler.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";

export type Behaviour =
  | { kind: "create" }
  | { kind: "create-then-drop" }
  | { kind: "create-then-stall"; ms: number }
  | { kind: "create-then-stall-body"; ms: number }
  | { kind: "drop" }
  | { kind: "create-without-echo" }
  | { kind: "status"; status: number; retryAfter?: string; body?: unknown; headers?: Record<string, string> }
  /** Writes `chunk` again and again (`times` times, or until the client goes away), at `status`. */
  | { kind: "flood"; status: number; chunk: string; times: number; contentLength?: boolean }
  /** The test answers by itself. */
  | { kind: "handler"; handle: (request: RecordedRequest, res: ServerResponse) => void };

export interface RecordedRequest {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

interface Stored {
  readonly body: string;
  readonly response: string;
}

export interface FakeService {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly events: Map<string, Stored>;
  /** Behaviours for the next requests, in order; once empty, every request creates. */
  readonly script: Behaviour[];
  /** For each flood: how many bytes were written before the client went away or it ended. */
  readonly floods: { written: number; closedByClient: boolean }[];
  /** Forgets every request, event, scripted behaviour and flood, for the next test. */
  reset(): void;
  close(): Promise<void>;
}

let counter = 0;
const newId = () => `01JD8X${String(++counter).padStart(20, "0")}`;

/**
 * One fake service for a test file: started before its tests, reset after each, closed after all.
 * Returns a getter, since the service exists only once the file's tests start.
 */
export function useFakeService(): () => FakeService {
  let service: FakeService | undefined;
  beforeAll(async () => {
    service = await startFakeService();
  });
  afterEach(() => service?.reset());
  afterAll(async () => {
    await service?.close();
  });
  return () => service!;
}

export async function startFakeService(): Promise<FakeService> {
  const requests: RecordedRequest[] = [];
  const events = new Map<string, Stored>();
  const script: Behaviour[] = [];
  const floods: { written: number; closedByClient: boolean }[] = [];

  const create = (key: string, body: string): { status: number; text: string } => {
    const stored = events.get(key);
    if (stored) {
      if (stored.body !== body) {
        const errors = [
          {
            status: "422",
            code: "ERR_IDEMPOTENCY_KEY_REUSED",
            title: "Key reused",
            detail: "the idempotency key was used with a different document",
          },
        ];
        return { status: 422, text: JSON.stringify({ errors }) };
      }
      return { status: 201, text: stored.response };
    }
    const document = JSON.parse(body) as { data: Record<string, unknown> };
    const response = JSON.stringify({
      data: { ...document.data, id: newId(), meta: { "idempotency-key": key } },
    });
    events.set(key, { body, response });
    return { status: 201, text: response };
  };

  const reply = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/vnd.api+json", ...headers });
    res.end(text);
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const recorded = {
      at: Date.now(),
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
    };
    requests.push(recorded);
    const key = String(req.headers["service-idempotency-key"] ?? "");
    const behaviour = script.shift() ?? { kind: "create" };
    switch (behaviour.kind) {
      case "create": {
        const { status, text } = create(key, body);
        return reply(res, status, text);
      }
      case "create-then-drop":
        create(key, body);
        return req.socket.destroy();
      case "create-then-stall": {
        const { status, text } = create(key, body);
        await new Promise((resolve) => setTimeout(resolve, behaviour.ms));
        if (!res.destroyed) reply(res, status, text);
        return;
      }
      case "create-then-stall-body": {
        // The status and half the body arrive; the rest comes too late.
        const { status, text } = create(key, body);
        res.writeHead(status, { "content-type": "application/vnd.api+json" });
        res.write(text.slice(0, 10));
        await new Promise((resolve) => setTimeout(resolve, behaviour.ms));
        if (!res.destroyed) res.end(text.slice(10));
        return;
      }
      case "drop":
        return req.socket.destroy();
      case "create-without-echo": {
        const { text } = create(key, body);
        const parsed = JSON.parse(text) as { data: { meta?: unknown } };
        delete parsed.data.meta;
        return reply(res, 201, JSON.stringify(parsed));
      }
      case "status":
        return reply(
          res,
          behaviour.status,
          behaviour.body === undefined ? "" : JSON.stringify(behaviour.body),
          {
            ...(behaviour.retryAfter === undefined ? {} : { "retry-after": behaviour.retryAfter }),
            ...behaviour.headers,
          },
        );
      case "flood": {
        const flood = { written: 0, closedByClient: false };
        floods.push(flood);
        const size = Buffer.byteLength(behaviour.chunk);
        res.writeHead(behaviour.status, {
          "content-type": "application/vnd.api+json",
          ...(behaviour.contentLength ? { "content-length": String(size * behaviour.times) } : {}),
        });
        res.on("close", () => {
          if (!res.writableFinished) flood.closedByClient = true;
        });
        // Waits for room in the socket, or for the client to go away.
        const room = () =>
          new Promise<void>((resolve) => {
            const done = () => {
              res.off("drain", done);
              res.off("close", done);
              resolve();
            };
            res.on("drain", done);
            res.on("close", done);
          });
        for (let i = 0; i < behaviour.times && !res.destroyed; i++) {
          flood.written += size;
          if (!res.write(behaviour.chunk)) await room();
        }
        if (!res.destroyed) res.end();
        return;
      }
      case "handler":
        return behaviour.handle(recorded, res);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    events,
    script,
    floods,
    reset: () => {
      requests.length = 0;
      events.clear();
      script.length = 0;
      floods.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
