/**
 * A webhook receiver process for the replay suite: node:http, the library's typed verifier with a
 * replay guard on a shared Redis, and a report line on stdout per request. Started by
 * replayGuard.redis.test.ts (bundled with esbuild); stops by itself on SIGTERM.
 */
import { createServer } from "node:http";
import { createClient } from "redis";
import { createWebhookReplayGuard } from "../../src/server/index.js";
import { createRedisReplayStore } from "../../src/server/redis/index.js";
import { createWebhookVerifier, isWebhookVerificationError } from "../../src/webhooks/index.js";

const client = createClient({ url: process.env.REDIS_URL });
await client.connect();
const guard = createWebhookReplayGuard({ store: createRedisReplayStore({ client }) });
const verifier = createWebhookVerifier({ secret: process.env.SIGNING_SECRET ?? "", replayGuard: guard });

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const result = await verifier.safeVerify({ body: Buffer.concat(chunks), headers: req.headers });
  const code = result.ok ? "ok" : result.error.code;
  const status = result.ok
    ? 204
    : isWebhookVerificationError(result.error) && result.error.kind === "unavailable"
      ? 503
      : 401;
  process.stdout.write(`${JSON.stringify({ event: "request", code, pid: process.pid })}\n`);
  res.writeHead(status, { "content-type": "text/plain" }).end(code);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ event: "listening", port, pid: process.pid })}\n`);
});
process.once("SIGTERM", () => {
  server.close(async () => {
    await guard.close();
    await client.close();
  });
});
