/**
 * The memory delivery queue's caps (`maxDeliveries`, `maxBytes`) and the queue calls the
 * per-endpoint controls rely on (`defer`, `dead` with the last answer), on their own and through
 * the dispatcher.
 */
import { describe, expect, it } from "vitest";
import {
  createMemoryDeliveryQueue,
  createWebhookDispatcher,
  DispatchError,
  isDispatchError,
  type MemoryDeliveryQueue,
  type QueuedDelivery,
} from "../../src/dispatch/index.js";

/** A body of `chars` UTF-16 units: the memory queue counts it as `2 × chars` bytes. */
const bodyOf = (chars: number) => "x".repeat(chars);

const delivery = (id: string, eventId = `event-${id}`, body = bodyOf(200)): QueuedDelivery => ({
  id,
  eventId,
  endpointId: "acme",
  type: "s.room.close",
  body,
  createdAt: 0,
});

/** What `add` threw, or a failure when it stored the deliveries. */
async function refusal(queue: MemoryDeliveryQueue, deliveries: QueuedDelivery[]): Promise<DispatchError> {
  const error = await queue.add(deliveries).then(
    () => {
      throw new Error("expected the add to be refused");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DispatchError);
  expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_QUEUE_FULL");
  return error as DispatchError;
}

/** Takes the next due delivery, failing when none is due. */
async function takeNow(queue: MemoryDeliveryQueue) {
  const lease = await queue.take({ signal: AbortSignal.timeout(1_000) });
  if (lease === undefined) throw new Error("expected a due delivery");
  return lease;
}

const nothingDue = async (queue: MemoryDeliveryQueue) =>
  expect(await queue.take({ signal: AbortSignal.timeout(30) })).toBeUndefined();

describe("maxDeliveries", () => {
  it("refuses an add that would pass it, whole; deliveries that end (completed or dead) make room", async () => {
    const queue = createMemoryDeliveryQueue({ maxDeliveries: 5 });
    const six = ["a", "b", "c", "d", "e", "f"].map((id) => delivery(id));
    const error = await refusal(queue, six);
    expect(error.message).toMatch(/maxDeliveries/);
    expect(queue.counts()).toEqual({ waiting: 0, leased: 0, dead: 0 });
    await nothingDue(queue);

    await queue.add(six.slice(0, 5));
    await refusal(queue, six.slice(5));
    expect(queue.counts()).toEqual({ waiting: 5, leased: 0, dead: 0 });
    // A leased delivery still counts.
    const first = await takeNow(queue);
    await refusal(queue, six.slice(5));
    await queue.complete(first);
    await queue.add(six.slice(5));
    expect(queue.counts()).toEqual({ waiting: 5, leased: 0, dead: 0 });
    // A dead one does not.
    await queue.dead(await takeNow(queue), "answered 500");
    await queue.add([delivery("g")]);
    expect(queue.counts()).toEqual({ waiting: 5, leased: 0, dead: 1 });
    await queue.close();
  });
});

describe("maxBytes", () => {
  // Each event's body is 200 UTF-16 units: 400 bytes as the queue counts them; 1,000 hold two events.
  it("counts a payload once per event, however many endpoints it goes to, until its last delivery ends", async () => {
    const queue = createMemoryDeliveryQueue({ maxBytes: 1_000 });
    // Three endpoints, one event: 400 bytes, not 1,200.
    const shared = ["a1", "a2", "a3"].map((id) => delivery(id, "event-a"));
    await queue.add(shared);
    await queue.add([delivery("b")]);
    const error = await refusal(queue, [delivery("c")]);
    expect(error.message).toMatch(/maxBytes/);
    expect(queue.counts()).toEqual({ waiting: 4, leased: 0, dead: 0 });
    // The event's bytes are held while any of its deliveries is.
    await queue.complete(await takeNow(queue));
    await queue.complete(await takeNow(queue));
    await refusal(queue, [delivery("c")]);
    await queue.complete(await takeNow(queue));
    await queue.add([delivery("c")]);
    expect(queue.counts()).toEqual({ waiting: 2, leased: 0, dead: 0 });
    await queue.close();
  });

  it("forgets the oldest dead deliveries to make room, then refuses", async () => {
    const queue = createMemoryDeliveryQueue({ maxBytes: 1_000 });
    await queue.add([delivery("a")]);
    await queue.add([delivery("b")]);
    await queue.dead(await takeNow(queue), "answered 500");
    await queue.dead(await takeNow(queue), "answered 502");
    expect((await queue.listDead()).map((dead) => dead.id)).toEqual(["a", "b"]);

    await queue.add([delivery("c")]);
    expect((await queue.listDead()).map((dead) => dead.id)).toEqual(["b"]);
    expect(await queue.replay("a")).toBe(false);
    await queue.add([delivery("d")]);
    expect(await queue.listDead()).toEqual([]);
    // Nothing dead is left to forget: refused, nothing stored.
    await refusal(queue, [delivery("e")]);
    expect(queue.counts()).toEqual({ waiting: 2, leased: 0, dead: 0 });
    expect([(await takeNow(queue)).delivery.id, (await takeNow(queue)).delivery.id]).toEqual(["c", "d"]);
    await nothingDue(queue);
    await queue.close();
  });

  // Dead deliveries are forgotten only when forgetting them makes enough room.
  it("a refused add forgets no dead delivery", async () => {
    const queue = createMemoryDeliveryQueue({ maxBytes: 1_000 });
    await queue.add([delivery("a")]);
    await queue.add([delivery("b")]);
    await queue.dead(await takeNow(queue), "answered 500");
    // 700 bytes: with "a" forgotten, 400 + 700 still pass 1,000.
    await refusal(queue, [delivery("c", "event-c", bodyOf(350))]);
    expect(queue.counts()).toEqual({ waiting: 1, leased: 0, dead: 1 });
    expect((await queue.listDead()).map((dead) => dead.id)).toEqual(["a"]);
    await queue.close();
  });
});

describe("through the dispatcher", () => {
  it("dispatch rejects with ERR_DISPATCH_QUEUE_FULL and queues nothing of the event", async () => {
    const queue = createMemoryDeliveryQueue({ maxDeliveries: 3 });
    const dispatcher = createWebhookDispatcher({
      endpoints: [
        { id: "a", url: "https://a.example/hooks", secret: "s3cr3t" },
        { id: "b", url: "https://b.example/hooks", secret: "s3cr3t" },
      ],
      queue,
      // A producer only: nothing is sent, so the queue stays as dispatch leaves it.
      deliver: false,
    });
    const event = { event: { type: "s.message.text", content: { body: "Hello" } } } as const;
    const { deliveries } = await dispatcher.dispatch(event);
    expect(deliveries).toHaveLength(2);
    const error = await dispatcher.dispatch(event).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DispatchError);
    expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_QUEUE_FULL");
    expect(String((error as Error).message)).not.toMatch(/s3cr3t|example/);
    expect(queue.counts()).toEqual({ waiting: 2, leased: 0, dead: 0 });
    const queued = [(await takeNow(queue)).delivery.id, (await takeNow(queue)).delivery.id];
    expect(queued.sort()).toEqual(deliveries.map((queuedDelivery) => queuedDelivery.id).sort());
    await nothingDue(queue);
    await dispatcher.close();
    await queue.close();
  });
});

describe("defer", () => {
  it("gives a lease back without counting an attempt, not handed out before dueAt", async () => {
    let clock = 1_000_000;
    const queue = createMemoryDeliveryQueue({ now: () => clock });
    await queue.add([delivery("a")]);
    await queue.retry(await takeNow(queue), clock, "answered 500");
    const second = await takeNow(queue);
    expect(second.attempts).toBe(1);
    await queue.defer(second, clock + 500);
    await nothingDue(queue);
    clock += 499;
    await nothingDue(queue);
    // The deferred lease is over: what it would complete is ignored.
    await queue.complete(second);
    expect(queue.counts()).toEqual({ waiting: 1, leased: 0, dead: 0 });
    clock += 1;
    const third = await takeNow(queue);
    expect(third.attempts).toBe(1);
    expect(third.token).not.toBe(second.token);
    // The next real attempt is the second.
    await queue.dead(third, "answered 500");
    expect((await queue.listDead())[0]?.attempts).toBe(2);
    await queue.close();
  });
});

describe("dead", () => {
  it("keeps what the endpoint last answered, and nothing when it did not answer", async () => {
    const queue = createMemoryDeliveryQueue();
    await queue.add([delivery("a"), delivery("b")]);
    await queue.dead(await takeNow(queue), "answered 502", { status: 502, body: "bad gateway" });
    await queue.dead(await takeNow(queue), "timed out after 15000 ms");
    const [answered, silent] = await queue.listDead();
    expect(answered).toMatchObject({
      id: "a",
      attempts: 1,
      reason: "answered 502",
      lastResponse: { status: 502, body: "bad gateway" },
    });
    expect(silent).toMatchObject({ id: "b", attempts: 1, reason: "timed out after 15000 ms" });
    expect(silent !== undefined && "lastResponse" in silent).toBe(false);
    await queue.close();
  });
});
