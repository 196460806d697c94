import { describe, expect, it } from "vitest";
import { describeRedisFailure } from "./describeRedisFailure.js";

const what = "the BullMQ queue failed to store the deliveries";

describe("describeRedisFailure", () => {
  it("says what to do about the failures users meet", () => {
    const cases: [unknown, RegExp][] = [
      [
        new Error("CROSSSLOT Keys in request don't hash to the same slot"),
        /hash slots: give the queue a hash-tagged prefix, such as "\{webhooks\}"/,
      ],
      [new Error("MOVED 3999 127.0.0.1:6381"), /one node of a Redis Cluster: pass an ioredis Cluster/],
      [new Error("CLUSTERDOWN The cluster is down"), /Redis Cluster is down/],
      [new Error("WRONGPASS invalid username-password pair or user is disabled."), /refused the credentials/],
      [new Error("NOAUTH Authentication required."), /refused the credentials/],
      [new Error("NOPERM this user has no permissions to run the 'evalsha' command"), /NOPERM/],
      [new Error("READONLY You can't write against a read only replica."), /connected to a replica/],
      [new Error("OOM command not allowed when used memory > 'maxmemory'."), /out of memory/],
      [new Error("The client is closed"), /could not be reached, or the client is closed/],
      [new Error("Connection is closed."), /could not be reached/],
      [
        Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:6379"), { code: "ECONNREFUSED" }),
        /could not be reached/,
      ],
      [new Error("wrapped", { cause: new Error("CROSSSLOT Keys") }), /hash-tagged prefix/],
      [
        Object.assign(new Error("Failed to refresh slots cache."), { lastNodeError: new Error("NOAUTH x") }),
        /credentials/,
      ],
    ];
    for (const [failure, advice] of cases) {
      const message = describeRedisFailure(what, failure);
      expect(message.startsWith(`${what}: `)).toBe(true);
      expect(message).toMatch(advice);
    }
  });

  it("never repeats a failure's own text, which may hold a connection URL and its password", () => {
    const failure = new Error("ERR invalid connection string redis://admin:hunter2@redis.internal:6379/0");
    const message = describeRedisFailure(what, failure);
    expect(message).toBe(`${what}: Redis or the client failed with ERR`);
    expect(message).not.toMatch(/hunter2|redis\.internal/);
    expect(describeRedisFailure(what, new TypeError("Invalid URL redis://a:secret@x"))).toBe(
      `${what} (its cause is attached)`,
    );
    expect(describeRedisFailure(what, "a string")).toBe(`${what} (its cause is attached)`);
  });
});
