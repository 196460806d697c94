import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../support/redisServer.js";

describe("the Redis test server", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers, survives a kill-and-restart empty, and stops by PID", async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    await client.set("k", "v");
    expect(await client.get("k")).toBe("v");
    await client.close();
    const before = server.pid;
    await server.restart();
    expect(server.pid).not.toBe(before);
    const again = createClient({ url: server.url });
    await again.connect();
    expect(await again.get("k")).toBeNull();
    await again.close();
  });
});
