/**
 * The handler's onError hook: every failure on the server's side reaches it with its stage, the
 * request, the principal and key known by then, and the status answered; the answer never depends
 * on what the hook does.
 */
import { describe, expect, it } from "vitest";
import {
  createEventsHandler,
  createMemoryIdempotencyStore,
  type EventsHandlerErrorContext,
  type EventsHandlerOptions,
  type IdempotencyStore,
} from "../../src/server/index.js";
import { authorize, countingCreate, createHeaders, documentFor } from "./support.js";

interface Reported {
  readonly error: unknown;
  readonly context: EventsHandlerErrorContext;
}

function handlerWith(options: Partial<EventsHandlerOptions>) {
  const reported: Reported[] = [];
  const handler = createEventsHandler({
    authorize,
    create: countingCreate().create,
    onError: (error, context) => {
      reported.push({ error, context });
    },
    ...options,
  });
  return { handler, reported };
}

const post = (key?: string, body = "hello") =>
  new Request("http://127.0.0.1/events", {
    method: "POST",
    headers: createHeaders(key),
    body: JSON.stringify(documentFor(body, key)),
  });

/** A memory store whose chosen method fails: what a Redis refusing writes looks like to the handler. */
function storeFailing(method: "claim" | "complete" | "release", error: unknown): IdempotencyStore {
  const store = createMemoryIdempotencyStore();
  return {
    claim: (input) => (method === "claim" ? Promise.reject(error) : store.claim(input)),
    complete: (ref, response, retentionMs) =>
      method === "complete" ? Promise.reject(error) : store.complete(ref, response, retentionMs),
    release: (ref) => (method === "release" ? Promise.reject(error) : store.release(ref)),
    extend: (ref, leaseMs) => store.extend(ref, leaseMs),
    close: () => store.close(),
  };
}

describe("onError", () => {
  it("hears of a create that throws, with the thrown value, principal, key and the 500 answered", async () => {
    const thrown = new Error("database down");
    const { handler, reported } = handlerWith({
      create: () => {
        throw thrown;
      },
    });
    const response = await handler(post("k-throws"));
    expect(response.status).toBe(500);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.error).toBe(thrown);
    expect(reported[0]!.context).toMatchObject({
      stage: "create",
      principal: "tenant-a",
      idempotencyKey: "k-throws",
      status: 500,
    });
    expect(reported[0]!.context.request.headers.get("service-idempotency-key")).toBe("k-throws");
    await handler.close();
  });

  it("hears of a create that returns garbage, with a TypeError naming what was expected", async () => {
    const { handler, reported } = handlerWith({
      create: () => ({ id: "   " }),
    });
    expect((await handler(post())).status).toBe(500);
    expect(reported[0]!.context.stage).toBe("create");
    expect(reported[0]!.error).toBeInstanceOf(TypeError);
    expect(String(reported[0]!.error)).toContain("{ id");
    expect(reported[0]!.context.idempotencyKey).toBeUndefined();
    await handler.close();
  });

  it("hears of a create past createTimeoutMs once (503), not again when it throws on abort", async () => {
    const { handler, reported } = handlerWith({
      createTimeoutMs: 50,
      create: ({ signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    });
    expect((await handler(post("k-slow"))).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reported.map(({ context }) => [context.stage, context.status])).toEqual([["create", 503]]);
    expect(String(reported[0]!.error)).toContain("createTimeoutMs");
    await handler.close();
  });

  it("hears of an authorize that throws (500), before any principal is known", async () => {
    const { handler, reported } = handlerWith({
      authorize: () => {
        throw new Error("token service down");
      },
    });
    expect((await handler(post("k-auth"))).status).toBe(500);
    expect(reported[0]!.context).toMatchObject({ stage: "authorize", principal: undefined, status: 500 });
    await handler.close();
  });

  it("hears of a store that fails to claim (503)", async () => {
    const failure = new Error("READONLY You can't write against a read only replica.");
    const { handler, reported } = handlerWith({ store: storeFailing("claim", failure) });
    expect((await handler(post("k-store"))).status).toBe(503);
    expect(reported[0]!.error).toBe(failure);
    expect(reported[0]!.context).toMatchObject({ stage: "store", status: 503, principal: "tenant-a" });
    await handler.close();
  });

  it("hears of a completing write that fails: the 201 stands, and the operator learns a retry would create again", async () => {
    const failure = new Error("OOM command not allowed when used memory > 'maxmemory'.");
    const { handler, reported } = handlerWith({ store: storeFailing("complete", failure) });
    const response = await handler(post("k-complete"));
    expect(response.status).toBe(201);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.error).toBe(failure);
    expect(reported[0]!.context).toMatchObject({
      stage: "complete",
      status: 201,
      idempotencyKey: "k-complete",
    });
    await handler.close();
  });

  it("hears of a key that could not be freed after a failed create (no status: the 500 was already decided)", async () => {
    const failure = new Error("connection lost");
    const { handler, reported } = handlerWith({
      store: storeFailing("release", failure),
      create: () => {
        throw new Error("create failed");
      },
    });
    expect((await handler(post("k-release"))).status).toBe(500);
    expect(reported.map(({ context }) => [context.stage, context.status])).toEqual([
      ["create", 500],
      ["store", undefined],
    ]);
    expect(reported[1]!.error).toBe(failure);
    await handler.close();
  });

  it("answers the same whatever the hook throws, rejects or returns", async () => {
    for (const onError of [
      () => {
        throw new Error("hook failed");
      },
      () => Promise.reject(new Error("hook rejected")),
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("trap");
            },
          },
        ),
    ]) {
      const handler = createEventsHandler({
        authorize,
        create: () => {
          throw new Error("create failed");
        },
        onError,
      });
      const response = await handler(post("k-hook"));
      expect(response.status).toBe(500);
      expect(((await response.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe(
        "ERR_INTERNAL",
      );
      await handler.close();
    }
  });

  it("is not called for what the client got wrong (401, 415, 422, 409, 429)", async () => {
    const { handler, reported } = handlerWith({});
    await handler(new Request("http://127.0.0.1/events", { method: "POST", body: "{}" }));
    await handler(post("k-ok"));
    await handler(
      new Request("http://127.0.0.1/events", {
        method: "POST",
        headers: createHeaders("k-ok"),
        body: JSON.stringify(documentFor("another document", "k-ok")),
      }),
    );
    expect(reported).toEqual([]);
    await handler.close();
  });

  it("refuses an onError that is not a function at creation", () => {
    expect(() =>
      createEventsHandler({ authorize, create: countingCreate().create, onError: "log" as never }),
    ).toThrow(/onError must be a function/);
  });
});
