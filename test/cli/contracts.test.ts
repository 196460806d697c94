/**
 * The command line and the emulator hand out the package's contracts: `schema --openapi` and
 * `--asyncapi` print the shipped documents byte for byte, `send --example NAME` creates an example
 * event, and `serve` serves `/openapi.json` (with the JSON Schema files its references point to) and
 * delivers an example webhook, signed, on `POST /webhooks/examples/<name>`.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../src/webhooks/index.js";
import { root, runCli, startCli } from "./cli.js";

const dist = `${root}dist/`;
const shipped = (path: string) => readFileSync(`${dist}${path}`, "utf8");
const secret = "contracts-webhook-secret";

/** Starts `messaging-events serve` and resolves to its URL once it says where it listens. */
async function serve(args: readonly string[]) {
  const child = startCli(["serve", "--port", "0", ...args], { WEBHOOK_SECRET: secret });
  let output = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    void exited.then(() => reject(new Error(`serve ended early:\n${output}`)));
  });
  running.push(child);
  const stop = () => {
    child.kill("SIGTERM");
    return exited;
  };
  return { url, log: () => output, stop };
}

const running: ReturnType<typeof startCli>[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("messaging-events schema --openapi / --asyncapi", () => {
  it("prints the shipped documents byte for byte, and refuses a type or both at once", async () => {
    const [openapi, asyncapi, withType, both, help] = await Promise.all([
      runCli(["schema", "--openapi"]),
      runCli(["schema", "--asyncapi"]),
      runCli(["schema", "--openapi", "s.timer"]),
      runCli(["schema", "--openapi", "--asyncapi"]),
      runCli(["schema", "--help"]),
    ]);
    expect(openapi).toEqual({ code: 0, stdout: shipped("openapi.json"), stderr: "" });
    expect(asyncapi).toEqual({ code: 0, stdout: shipped("asyncapi.json"), stderr: "" });
    expect(withType.code).toBe(2);
    expect(withType.stderr).toContain("--openapi takes no type");
    expect(both.code).toBe(2);
    expect(help.stdout).toContain("--openapi");
    expect(help.stdout).toContain("--asyncapi");
  });
});

describe("messaging-events send --example", () => {
  it("creates the example event on the emulator, and names the closest example for a typo", async () => {
    const emulator = await serve([]);
    const env = { TOKEN: "Bearer contracts" };
    const base = ["send", "--base-url", emulator.url, "--authorization-env", "TOKEN"];
    const [timer, action, typo, both] = await Promise.all([
      runCli([...base, "--example", "s.timer--cancelled"], { env }),
      runCli([...base, "--example", "s.message.action--date"], { env }),
      runCli([...base, "--example", "s.timer--canceled"], { env }),
      runCli([...base, "--example", "s.timer", "event.json"], { env }),
    ]);
    expect(timer.code).toBe(0);
    const created = JSON.parse(timer.stdout) as { data: { id: string; attributes: unknown } };
    expect(created.data.attributes).toEqual({
      eventType: "s.timer",
      content: JSON.parse(shipped("examples/events/s.timer--cancelled.json")).content,
    });
    expect(action.code).toBe(0);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("did you mean s.timer--cancelled?");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("not both");
    await emulator.stop();
  });
});

describe("the emulator's contract routes", () => {
  it("serves /openapi.json, /asyncapi.json and the JSON Schema files as shipped, and 404 for others", async () => {
    const emulator = await serve([]);
    for (const path of [
      "openapi.json",
      "asyncapi.json",
      "json-schema/event-document.json",
      "json-schema/s.timer.json",
    ]) {
      const response = await fetch(`${emulator.url}/${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.text(), path).toBe(shipped(path));
    }
    expect((await fetch(`${emulator.url}/json-schema/nope.json`)).status).toBe(404);
    expect((await fetch(`${emulator.url}/json-schema/..%2Fopenapi.json`)).status).toBe(404);
    expect(emulator.log()).toContain("GET /openapi.json 200");
    await emulator.stop();
  });

  it("delivers an example webhook, signed, to every webhook URL; 404 for an unknown one, 409 without a URL", async () => {
    const received: { payload: unknown; id: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", async () => {
        const payload = await verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret });
        received.push({ payload, id: String(req.headers["service-webhook-id"]) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const emulator = await serve(["--webhook-url", hooks, "--secret-env", "WEBHOOK_SECRET"]);
    const answer = await fetch(`${emulator.url}/webhooks/examples/s.message.media--with-body`, {
      method: "POST",
    });
    expect(answer.status).toBe(202);
    const { deliveries } = (await answer.json()) as { deliveries: { id: string }[] };
    expect(deliveries).toHaveLength(1);
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([
      {
        payload: JSON.parse(shipped("examples/webhooks/s.message.media--with-body.json")),
        id: deliveries[0]!.id,
      },
    ]);
    expect((await fetch(`${emulator.url}/webhooks/examples/s.message.nope`, { method: "POST" })).status).toBe(
      404,
    );
    // Hostile requests: a name that is not percent-encoded UTF-8 is a 400, not a crash; a page on
    // another site (its browser says so) cannot make the emulator deliver.
    expect((await fetch(`${emulator.url}/webhooks/examples/%E0`, { method: "POST" })).status).toBe(400);
    const crossSite = await fetch(`${emulator.url}/webhooks/examples/s.room.close`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect((await fetch(`${emulator.url}/health`)).status).toBe(200);
    await emulator.stop();
    const without = await serve([]);
    expect((await fetch(`${without.url}/webhooks/examples/s.room.close`, { method: "POST" })).status).toBe(
      409,
    );
    await without.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });
});
