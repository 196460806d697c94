/** `messaging-events serve` as a user runs it (the built program), and a receiver that fails once. */
import type { ChildProcess } from "node:child_process";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "../../src/webhooks/index.js";
import { startCli } from "../cli/cli.js";

export const SECRET = "inspector-test-webhook-secret";

export interface RunningEmulator {
  readonly url: string;
  readonly log: () => string;
  stop(): Promise<number | null>;
}

/** Starts the emulator with `args` and resolves once it says where it listens. */
export async function serve(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<RunningEmulator> {
  const child: ChildProcess = startCli(["serve", "--port", "0", ...args], { WEBHOOK_SECRET: SECRET, ...env });
  let output = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      // The first lines are written together: the address, then the inspector's.
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found && output.includes("\n  ")) resolve(found[1]!);
      else if (found && args.includes("--no-inspector")) resolve(found[1]!);
    });
    void exited.then(() => reject(new Error(`serve ended early:\n${output}`)));
  });
  return {
    url,
    log: () => output,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** One request the receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly status: number;
}

/**
 * A webhook receiver that fails the first attempt of each delivery (500, as a database blip would)
 * and verifies the others with the library, answering 204.
 */
export async function failingOnceReceiver() {
  const received = new Map<string, Received[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const id = String(req.headers["service-webhook-id"]);
      const body = Buffer.concat(chunks).toString("utf8");
      const earlier = received.get(id) ?? [];
      let status = 500;
      if (earlier.length > 0) {
        try {
          await verifyWebhook({ body, headers: req.headers, secret: SECRET });
          status = 204;
        } catch {
          status = 401;
        }
      }
      received.set(id, [...earlier, { headers: req.headers, body, status }]);
      if (status === 500)
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"database blip"}');
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
