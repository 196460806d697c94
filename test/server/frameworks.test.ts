/**
 * The handler inside the frameworks users mount it in: Express (through createNodeListener, before
 * any body parser) and Hono (the Fetch handler as it is), each on a real socket on 127.0.0.1.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import express from "express";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createEventsHandler, createNodeListener } from "../../src/server/index.js";
import { authorize, countingCreate, createHeaders, documentFor, snapshot } from "./support.js";

async function exercise(url: string) {
  const send = () =>
    fetch(url, {
      method: "POST",
      headers: createHeaders("fw-1"),
      body: JSON.stringify(documentFor("framework", "fw-1")),
    });
  const first = await send();
  const replay = await send();
  return { first, replay };
}

async function closeServer(server: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe("frameworks", () => {
  it("Express: app.use(createNodeListener(handler)) creates and replays", async () => {
    const { create, calls } = countingCreate();
    const handler = createEventsHandler({ authorize, create });
    const app = express();
    app.use("/api", createNodeListener(handler));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    // Express strips the mount path: the handler sees /events.
    const { first, replay } = await exercise(`http://127.0.0.1:${port}/api/events`);
    expect(first.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await snapshot(replay)).toBe(await snapshot(first));
    expect(calls).toHaveLength(1);
    await closeServer(server);
    await handler.close();
  });

  it("Hono: the Fetch handler as a route", async () => {
    const { create, calls } = countingCreate();
    const handler = createEventsHandler({ authorize, create });
    const app = new Hono();
    app.all("/events", (context) => handler(context.req.raw));
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const { first, replay } = await exercise(`http://127.0.0.1:${port}/events`);
    expect(first.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(calls).toHaveLength(1);
    await closeServer(server);
    await handler.close();
  });
});
