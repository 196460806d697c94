/**
 * A process that dispatches with the memory queue to a receiver of its own, waits for the delivery
 * (one failed attempt, then a retry), leaves a second delivery waiting for a retry, closes
 * everything and then must exit by itself: a timer or socket left open would keep it alive.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryDeliveryQueue, createWebhookDispatcher } from "../../src/dispatch/index.js";

let requests = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    requests++;
    response.writeHead(requests === 1 ? 500 : 204).end();
  });
});
server.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

const queue = createMemoryDeliveryQueue();
const dispatcher = createWebhookDispatcher({
  endpoints: [{ id: "local", url, secret: ["s3cr3t"] }],
  queue,
  retry: { delaysMs: [30, 60_000], jitter: 0 },
  // The receivers listen on loopback, which the dispatcher refuses unless allowed.
  destinations: { allow: ["127.0.0.1"] },
});
await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
await queue.idle();
// A second delivery that fails and waits a minute for its retry: it must not hold the process.
requests = 0;
await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
while (queue.counts().waiting === 0) await new Promise((resolve) => setTimeout(resolve, 5));
await dispatcher.close();
await queue.close();
server.closeAllConnections();
await new Promise((resolve) => server.close(resolve));
process.stdout.write(`${JSON.stringify({ closed: true, resources: process.getActiveResourcesInfo() })}\n`);
