/**
 * Real servers on loopback receive a signed POST and verify it, the way the README's cookbook
 * wires them: Express with express.raw, Hono, and plain node:http. A JSON body parser that consumed
 * the raw body, or a raw parser that skipped the request's content type, gets the clear error and a
 * 500 (a configuration error), not a 401.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import express from "express";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWebhookVerifier,
  isWebhookVerificationError,
  signWebhook,
  verifyWebhook,
} from "../../src/webhooks/index.js";

const secret = "whsec_servers";
const payload = { type: "s.message.text", version: 2, content: { body: "Grüße 👋" }, roomId: "room-42" };
const verifier = createWebhookVerifier({ secret });

/** What every receiver answers: 200 with the type, the error's own status (401, 500…) otherwise. */
const reply = (error: unknown) =>
  isWebhookVerificationError(error)
    ? {
        status: error.status,
        body: { code: error.code, message: error.message },
      }
    : { status: 500, body: { code: "UNEXPECTED" } };

const servers: Server[] = [];
const urls: Record<string, string> = {};

async function listen(name: string, server: Server): Promise<void> {
  servers.push(server);
  if (!server.listening) await once(server.listen(0, "127.0.0.1"), "listening");
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

beforeAll(async () => {
  const app = express();
  app.post("/hooks", express.raw({ type: "*/*" }), async (req, res) => {
    try {
      const verified = await verifyWebhook({ body: req.body, headers: req.headers, secret });
      res.json({ type: verified.type });
    } catch (error) {
      const { status, body } = reply(error);
      res.status(status).json(body);
    }
  });
  await listen("express", createServer(app));

  const parsing = express();
  const answer = async (req: express.Request, res: express.Response) => {
    const result = await verifier.safeVerify({ body: req.body, headers: req.headers });
    if (result.success) res.json({ type: result.data.type });
    else
      res.status(reply(result.error).status).json({ code: result.error.code, message: result.error.message });
  };
  parsing.post("/hooks", express.json(), answer);
  // A raw parser limited to one content type skips a request sent as text/plain.
  parsing.post("/narrow", express.raw({ type: "application/json" }), answer);
  parsing.post("/unparsed", answer);
  await listen("express.json", createServer(parsing));

  const hono = new Hono();
  hono.post("/hooks", async (c) => {
    try {
      const verified = await verifier.verifyRequest(c.req.raw);
      return c.json({ type: verified.type });
    } catch (error) {
      const { status, body } = reply(error);
      return c.json(body, status as 401);
    }
  });
  const honoServer = serve({ fetch: hono.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  await once(honoServer, "listening");
  await listen("hono", honoServer);

  const plain = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const result = await verifier.safeVerify({ body: Buffer.concat(chunks), headers: req.headers });
    res.writeHead(result.success ? 200 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(result.success ? { type: result.data.type } : { code: result.error.code }));
  });
  await listen("node:http", plain);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function post(name: string, headers: Record<string, string>, body: string, path = "/hooks") {
  const response = await fetch(urls[name]!.replace("/hooks", path), { method: "POST", headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe.each(["express", "hono", "node:http"])("%s on loopback", (name) => {
  it("accepts a signed POST", async () => {
    const signed = await signWebhook({ payload, secret });
    expect(await post(name, signed.headers, signed.body)).toEqual({
      status: 200,
      body: { type: "s.message.text" },
    });
  });

  it("rejects a tampered body and a wrong secret", async () => {
    const signed = await signWebhook({ payload, secret });
    const tampered = await post(name, signed.headers, signed.body.replace("Grüße", "Grüsse"));
    expect(tampered).toMatchObject({ status: 401, body: { code: "ERR_WEBHOOK_SIGNATURE_MISMATCH" } });
    const forged = await signWebhook({ payload, secret: "whsec_attacker" });
    expect(await post(name, forged.headers, forged.body)).toMatchObject({
      status: 401,
      body: { code: "ERR_WEBHOOK_SIGNATURE_MISMATCH" },
    });
  });

  it("rejects a signature header sent twice, the good one last", async () => {
    const signed = await signWebhook({ payload, secret });
    // An array value: Node sends the header twice on the wire (fetch would join the values).
    const headers = {
      ...signed.headers,
      "service-signature": ["A".repeat(86), signed.headers["service-signature"]],
    };
    const response = await new Promise<{ status: number; body: Record<string, string> }>(
      (resolve, reject) => {
        const request = httpRequest(urls[name]!, { method: "POST", headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        });
        request.on("error", reject);
        request.end(signed.body);
      },
    );
    expect(response.status).toBe(401);
    // Node joins the two values into one ("a, b"); a Headers object does the same: never accepted.
    expect(["ERR_WEBHOOK_HEADER_REPEATED", "ERR_WEBHOOK_SIGNATURE_MALFORMED"]).toContain(response.body.code);
  });

  it("rejects a replay outside the tolerance", async () => {
    const old = await signWebhook({ payload, secret, timestamp: Date.now() - 600_000 });
    expect(await post(name, old.headers, old.body)).toMatchObject({
      status: 401,
      body: { code: "ERR_WEBHOOK_TIMESTAMP_TOO_OLD" },
    });
  });
});

describe("body parser mistakes are configuration errors (500) that name the fix", () => {
  it("express.json() in front: the body was parsed", async () => {
    const signed = await signWebhook({ payload, secret });
    const response = await post("express.json", signed.headers, signed.body);
    expect(response.status).toBe(500);
    expect(response.body.code).toBe("ERR_WEBHOOK_BODY_PARSED");
    expect(response.body.message).toMatch(
      /parsed from JSON: pass the raw body \(express\.raw, not express\.json\)/,
    );
  });

  it.each([
    ['text/plain into express.raw({ type: "application/json" })', "/narrow"],
    ["no body parser at all", "/unparsed"],
  ])("%s: the raw body is missing", async (_name, path) => {
    const signed = await signWebhook({ payload, secret });
    const response = await post(
      "express.json",
      { ...signed.headers, "content-type": "text/plain" },
      signed.body,
      path,
    );
    expect(response).toEqual({
      status: 500,
      body: {
        code: "ERR_WEBHOOK_INVALID_INPUT",
        message:
          'the raw body is missing: with Express use express.raw({ type: "*/*" }) on this route; with NestJS create the app with { rawBody: true }',
      },
    });
  });
});
