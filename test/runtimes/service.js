/**
 * A loopback stand-in for the service for the runtime suite: the first request of each key gets a
 * 503, the next creates the event (so a retry is exercised), later ones get the stored response.
 * Runs on Node; `start()` resolves to `{ url, close }`.
 */
import { createServer } from "node:http";

export async function start() {
  const seen = new Map();
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString("utf8");
    const key = String(req.headers["service-idempotency-key"] ?? "");
    const headers = { "content-type": "application/vnd.api+json", "access-control-allow-origin": "*" };
    if (req.method === "OPTIONS") {
      // A browser's preflight for the Authorization and Service-Idempotency-Key headers.
      res
        .writeHead(204, {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "POST",
          "access-control-allow-headers": "authorization, content-type, accept, service-idempotency-key",
        })
        .end();
      return;
    }
    if (!seen.has(key)) {
      seen.set(key, undefined);
      res.writeHead(503, headers).end();
      return;
    }
    if (seen.get(key) === undefined) {
      const document = JSON.parse(body);
      seen.set(key, JSON.stringify({ data: { ...document.data, id: "01JD8X5QK3M2" } }));
    }
    res.writeHead(201, headers).end(seen.get(key));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
