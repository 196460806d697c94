import { describe, expect, it } from "vitest";
import { createMemoryDeliveryQueue } from "./createMemoryDeliveryQueue.js";
import type { QueuedDelivery } from "./DeliveryQueue.js";
import { isDispatchError } from "./DispatchError.js";

const delivery = (id: string): QueuedDelivery => ({
  id,
  eventId: "event-1",
  endpointId: "acme",
  type: "s.room.close",
  body: '{"type":"s.room.close","version":2,"content":{}}',
  createdAt: 0,
});

describe("createMemoryDeliveryQueue", () => {
  it("hands out each delivery to one taker, in order, and forgets completed ones", async () => {
    const queue = createMemoryDeliveryQueue();
    await queue.add([delivery("a"), delivery("b"), delivery("a")]);
    const [first, second] = await Promise.all([queue.take({}), queue.take({})]);
    expect([first?.delivery.id, second?.delivery.id]).toEqual(["a", "b"]);
    expect(first?.attempts).toBe(0);
    expect(queue.counts()).toEqual({ waiting: 0, leased: 2, dead: 0 });
    await queue.complete(first!);
    await queue.complete(second!);
    expect(queue.counts()).toEqual({ waiting: 0, leased: 0, dead: 0 });
    await queue.idle();
    await queue.close();
  });

  it("retries at the given time, counting attempts; ignores stale leases", async () => {
    const queue = createMemoryDeliveryQueue();
    await queue.add([delivery("a")]);
    const lease = (await queue.take({}))!;
    const start = Date.now();
    await queue.retry(lease, start + 80, "answered 500");
    await queue.complete(lease); // stale: the lease ended with the retry
    const again = (await queue.take({}))!;
    expect(Date.now() - start).toBeGreaterThanOrEqual(75);
    expect(again.attempts).toBe(1);
    expect(again.token).not.toBe(lease.token);
    await queue.complete(again);
    await queue.close();
  });

  it("keeps dead deliveries, lists them oldest first, replays them with a fresh count", async () => {
    const queue = createMemoryDeliveryQueue({ maxDead: 2 });
    await queue.add([delivery("a"), delivery("b"), delivery("c")]);
    for (let index = 0; index < 3; index++) await queue.dead((await queue.take({}))!, `reason ${index}`);
    const dead = await queue.listDead();
    expect(dead.map((item) => [item.id, item.attempts, item.reason])).toEqual([
      ["b", 1, "reason 1"],
      ["c", 1, "reason 2"],
    ]);
    expect(await queue.listDead({ limit: 1 })).toHaveLength(1);
    expect(await queue.replay("a")).toBe(false); // dropped past maxDead
    expect(await queue.replay("b")).toBe(true);
    const replayed = (await queue.take({}))!;
    expect([replayed.delivery.id, replayed.attempts]).toEqual(["b", 0]);
    await queue.close();
  });

  it("hands a lease out again once its lock expires (at least once)", async () => {
    const queue = createMemoryDeliveryQueue({ lockMs: 50 });
    await queue.add([delivery("a")]);
    const lease = (await queue.take({}))!;
    const again = (await queue.take({}))!;
    expect(again.delivery.id).toBe("a");
    expect(again.token).not.toBe(lease.token);
    await queue.complete(again);
    await queue.close();
  });

  it("release gives a lease back without counting an attempt", async () => {
    const queue = createMemoryDeliveryQueue();
    await queue.add([delivery("a")]);
    await queue.release((await queue.take({}))!);
    expect((await queue.take({}))?.attempts).toBe(0);
    await queue.close();
  });

  it("take resolves to undefined on abort and on close; close is idempotent and refuses adds", async () => {
    const queue = createMemoryDeliveryQueue();
    expect(await queue.take({ signal: AbortSignal.timeout(20) })).toBeUndefined();
    const waiting = queue.take({});
    await queue.close();
    await queue.close();
    expect(await waiting).toBeUndefined();
    const error = await queue.add([delivery("a")]).catch((caught: unknown) => caught);
    expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_CLOSED");
  });

  it("keeps a delivery's trace context through retries, death and listing; drops one that is not W3C", async () => {
    const queue = createMemoryDeliveryQueue();
    const trace = {
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      tracestate: "vendor=value",
    };
    await queue.add([
      { ...delivery("traced"), trace },
      { ...delivery("odd"), trace: { traceparent: "x" } },
    ]);
    const first = (await queue.take({}))!;
    expect(first.delivery.trace).toEqual(trace);
    const odd = (await queue.take({}))!;
    expect(odd.delivery).not.toHaveProperty("trace");
    await queue.complete(odd);
    await queue.retry(first, Date.now(), "answered 500");
    const again = (await queue.take({}))!;
    expect(again.delivery.trace).toEqual(trace);
    await queue.dead(again, "answered 500");
    expect((await queue.listDead())[0]?.trace).toEqual(trace);
    await queue.close();
  });

  it("refuses deliveries a dispatcher would not build", async () => {
    const queue = createMemoryDeliveryQueue();
    await expect(queue.add([{ ...delivery("a"), type: "s.presence" as never }])).rejects.toThrow(/type/);
    await expect(queue.add([{ ...delivery("a b") }])).rejects.toThrow(/id/);
    await queue.close();
  });
});
