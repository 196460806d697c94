/**
 * Where webhooks may go. Customers register the URLs, so the dispatcher refuses internal
 * destinations: address literals in any spelling when the endpoints are read, and host names on
 * the address they resolve to, at connect time (Node's default transport) or before each attempt
 * (another `fetch` with a resolver). No packet leaves loopback: names are mapped by a resolver,
 * requests are recorded, and the only sockets are receivers on 127.0.0.1.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  createWebhookDispatcher,
  type DeliveryAttempt,
  isDispatchError,
  safeParseWebhookUrl,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "../../src/dispatch/index.js";

const SECRET = "whsec-destinations";

/** The seventeen destinations users registered, every one internal. */
const FOUND = [
  "http://127.0.0.1:6379/",
  "http://localhost/",
  "http://[::1]/",
  "http://0.0.0.0/",
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://100.100.100.200/latest/meta-data/",
  "http://10.0.0.5/",
  "http://172.16.0.1/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://2130706433/",
  "http://0x7f.0.0.1/",
  "http://0251.0376.0251.0376/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:7f00:1]/",
];

/** A name per forbidden range, and the address a resolver gives it. */
const RESOLVED: Record<string, string> = {
  "loopback.test": "127.0.0.1",
  "loopback6.test": "::1",
  "unspecified.test": "0.0.0.0",
  "metadata.test": "169.254.169.254",
  "alibaba-metadata.test": "100.100.100.200",
  "aws-ipv6-metadata.test": "fd00:ec2::254",
  "ten.test": "10.0.0.5",
  "oneseventwo.test": "172.16.0.1",
  "oneninetwo.test": "192.168.1.1",
  "shared.test": "100.64.0.1",
  "multicast.test": "224.0.0.1",
  "broadcast.test": "255.255.255.255",
  "reserved.test": "240.0.0.1",
  "documentation.test": "192.0.2.1",
  "linklocal6.test": "fe80::1",
  "mapped.test": "::ffff:169.254.169.254",
  "nat64.test": "64:ff9b::a00:5",
  "sixtofour.test": "2002:7f00:1::",
};

const resolver = async (hostname: string): Promise<readonly string[]> => {
  const address = RESOLVED[hostname];
  if (address === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return [address];
};

const open: (WebhookDispatcher | Server)[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) {
    if ("dispatch" in item) await item.close();
    else {
      item.closeAllConnections();
      await new Promise((resolve) => item.close(resolve));
    }
  }
});

function recordingFetch() {
  const requests: string[] = [];
  const fetch = async (input: string) => {
    requests.push(input);
    return new Response(null, { status: 204 });
  };
  return { requests, fetch };
}

function dispatcherWith(options: WebhookDispatcherOptions): {
  dispatcher: WebhookDispatcher;
  attempts: DeliveryAttempt[];
} {
  const attempts: DeliveryAttempt[] = [];
  const dispatcher = createWebhookDispatcher({
    retry: { delaysMs: [], jitter: 0 },
    ...options,
    onAttempt: (attempt) => {
      attempts.push(attempt);
    },
  });
  open.push(dispatcher);
  return { dispatcher, attempts };
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function receiver(): Promise<{
  url: (host: string) => string;
  received: string[];
  connections: () => number;
}> {
  const received: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    received.push(String(req.headers.host));
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  server.on("connection", () => connections++);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  open.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: (host) => `http://${host}:${port}/hooks`, received, connections: () => connections };
}

describe("destinations refused when the endpoints are read", () => {
  it.each(FOUND)("refuses %s with ERR_DISPATCH_DESTINATION_REFUSED, before any request", (url) => {
    const { requests, fetch } = recordingFetch();
    let error: unknown;
    try {
      createWebhookDispatcher({
        endpoints: [{ id: "customer", url, secret: SECRET }],
        fetch,
        destinations: { resolve: resolver },
      });
    } catch (caught) {
      error = caught;
    }
    expect(isDispatchError(error) && error.code).toBe("ERR_DISPATCH_DESTINATION_REFUSED");
    // The refusal names the endpoint, never the URL or the address.
    const message = (error as Error).message;
    expect(message).toContain('"customer"');
    expect(message).not.toContain(new URL(url).hostname);
    expect(requests).toEqual([]);
    expect(safeParseWebhookUrl(url).success).toBe(false);
  });

  it("refuses them in a list from an endpoints function at dispatch, enqueueing nothing", async () => {
    const { requests, fetch } = recordingFetch();
    for (const url of FOUND) {
      const { dispatcher } = dispatcherWith({ endpoints: () => [{ id: "c", url, secret: SECRET }], fetch });
      await expect(
        dispatcher.dispatch({ event: { type: "s.room.close", content: {} } }),
      ).rejects.toMatchObject({ code: "ERR_DISPATCH_DESTINATION_REFUSED" });
    }
    expect(requests).toEqual([]);
  });

  it("allows what destinations.allow names: a range, an address, a host name, a domain", () => {
    const { fetch } = recordingFetch();
    const allowed = [
      ["http://10.1.2.3/", "10.0.0.0/8"],
      ["http://127.0.0.1:6379/", "127.0.0.1"],
      ["http://[::1]/", "::1/128"],
      ["http://[::ffff:7f00:1]/", "127.0.0.0/8"],
      ["http://localhost:3000/", "localhost"],
      ["http://hooks.corp.internal/", "*.corp.internal"],
    ] as const;
    for (const [url, allow] of allowed) {
      expect(() =>
        createWebhookDispatcher({
          endpoints: [{ id: "ok", url, secret: SECRET }],
          fetch,
          deliver: false,
          destinations: { allow: [allow] },
        }),
      ).not.toThrow();
      expect(safeParseWebhookUrl(url, { allow: [allow] }).success).toBe(true);
      // The exception is that one: another internal address stays refused.
      expect(safeParseWebhookUrl("http://192.168.0.1/", { allow: [allow] }).success).toBe(false);
    }
  });

  it("refuses http: with httpsOnly, and accepts public https: URLs", () => {
    expect(safeParseWebhookUrl("http://acme.example/hooks", { httpsOnly: true })).toMatchObject({
      success: false,
      error: { code: "ERR_DISPATCH_DESTINATION_REFUSED" },
    });
    expect(safeParseWebhookUrl("https://acme.example/hooks", { httpsOnly: true }).success).toBe(true);
    expect(() =>
      createWebhookDispatcher({
        endpoints: [{ id: "plain", url: "http://acme.example/", secret: SECRET }],
        destinations: { httpsOnly: true },
        deliver: false,
      }),
    ).toThrow(/https/);
  });

  it("refuses a URL with credentials in it, and refuses bad allow entries at creation", () => {
    expect(safeParseWebhookUrl("https://user:pass@acme.example/").success).toBe(false);
    expect(() =>
      createWebhookDispatcher({ endpoints: [], destinations: { allow: ["10.0.0.0/33"] }, deliver: false }),
    ).toThrow(TypeError);
    expect(() =>
      createWebhookDispatcher({ endpoints: [], destinations: { allow: ["not a host"] }, deliver: false }),
    ).toThrow(/destinations.allow/);
  });

  it("safeParseWebhookUrl returns for any argument, proxies with throwing traps included", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    for (const value of [undefined, null, 42, {}, [], hostile, Symbol("x"), "x".repeat(100_000)]) {
      expect(safeParseWebhookUrl(value).success).toBe(false);
    }
    expect(safeParseWebhookUrl("https://acme.example/", hostile as never).success).toBe(false);
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = safeParseWebhookUrl(`http://${text}/`);
        if (!result.success) expect(result.error.message).not.toContain(text.length > 3 ? text : "\u0000");
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with the URL parser on every IPv4 spelling: an internal address is refused however it is written", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0x7f000001, 0x0a000005, 0xa9fea9fe, 0xc0a80101, 0xac100001, 0x64400001, 0),
        fc.constantFrom("dec", "hex", "oct"),
        fc.integer({ min: 1, max: 4 }),
        (value, base, parts) => {
          const bytes = [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
          const head = bytes.slice(0, parts - 1);
          const rest = bytes.slice(parts - 1).reduce((sum, byte) => sum * 256 + byte, 0);
          const write = (n: number) =>
            base === "hex" ? `0x${n.toString(16)}` : base === "oct" ? `0${n.toString(8)}` : String(n);
          const spelling = [...head, rest].map(write).join(".");
          expect(safeParseWebhookUrl(`http://${spelling}/`).success).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("host names checked on the address they resolve to", () => {
  it("refuses every forbidden range a name resolves to, before any request, with one reason for all", async () => {
    const { requests, fetch } = recordingFetch();
    const names = [...Object.keys(RESOLVED), "does-not-resolve.test"];
    const { dispatcher, attempts } = dispatcherWith({
      endpoints: names.map((name) => ({ id: name, url: `https://${name}/hooks`, secret: SECRET })),
      fetch,
      destinations: { resolve: resolver },
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === names.length);
    expect(requests).toEqual([]);
    const reasons = new Set(attempts.map((attempt) => attempt.reason));
    // Not resolvable and internal read the same: an attempt tells nothing about the target.
    expect(reasons.size).toBe(1);
    const [reason] = [...reasons];
    expect(reason).toMatch(/^destination refused/);
    for (const attempt of attempts) {
      expect(attempt.status).toBeUndefined();
      expect(attempt.response).toBeUndefined();
      expect(attempt.outcome).toBe("dead");
    }
    for (const [name, address] of Object.entries(RESOLVED)) {
      expect(reason).not.toContain(name);
      expect(reason).not.toContain(address);
    }
  });

  it("sends to a public address a name resolves to, even when the answer also lists internal ones", async () => {
    const { requests, fetch } = recordingFetch();
    const { dispatcher, attempts } = dispatcherWith({
      endpoints: [{ id: "mixed", url: "https://mixed.test/hooks", secret: SECRET }],
      fetch,
      destinations: { resolve: async () => ["10.0.0.1", "203.0.114.7"] },
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === 1);
    expect(attempts[0]!.outcome).toBe("delivered");
    expect(requests).toEqual(["https://mixed.test/hooks"]);
  });

  it("with a fetch of yours and no resolver, leaves host names to it (literals are still refused)", async () => {
    const { requests, fetch } = recordingFetch();
    const { dispatcher, attempts } = dispatcherWith({
      endpoints: [{ id: "named", url: "https://loopback.test/hooks", secret: SECRET }],
      fetch,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === 1);
    expect(requests).toEqual(["https://loopback.test/hooks"]);
  });
});

describe("Node's default transport: checked at connect time, pinned", () => {
  it("delivers to an allowed loopback receiver through a name, and refuses the same name once it resolves elsewhere", async () => {
    const { url, received } = await receiver();
    let answer = "127.0.0.1";
    let lookups = 0;
    const { dispatcher, attempts } = dispatcherWith({
      endpoints: [{ id: "rebinding", url: url("rebinding.test"), secret: SECRET }],
      destinations: {
        allow: ["127.0.0.1/32"],
        resolve: async () => {
          lookups++;
          return [answer];
        },
      },
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === 1);
    expect(attempts[0]!.outcome).toBe("delivered");
    expect(received).toEqual([new URL(url("rebinding.test")).host]);
    // The name now points at another loopback address, which is not allowed: refused when connecting.
    answer = "127.0.0.2";
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === 2);
    expect(attempts[1]!.outcome).toBe("dead");
    expect(attempts[1]!.reason).toMatch(/^destination refused/);
    expect(received).toHaveLength(1);
    // One lookup per attempt: the address checked is the address connected to.
    expect(lookups).toBe(2);
  });

  it("never connects when the check refuses", async () => {
    const { url, received, connections } = await receiver();
    const { dispatcher, attempts } = dispatcherWith({
      endpoints: [{ id: "private", url: url("private.test"), secret: SECRET }],
      destinations: { resolve: async () => ["127.0.0.1"] },
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === 1);
    expect(attempts[0]!.reason).toMatch(/^destination refused/);
    expect(connections()).toBe(0);
    expect(received).toEqual([]);
  });

  it("refuses, when creating the dispatcher, a runtime that can neither resolve nor pin (as on a worker)", () => {
    const process_ = globalThis.process as { getBuiltinModule?: unknown };
    const saved = process_.getBuiltinModule;
    process_.getBuiltinModule = undefined;
    try {
      expect(() => createWebhookDispatcher({ endpoints: [], deliver: false })).toThrow(
        /destinations.resolve/,
      );
      // Told how: a resolver, or an egress that is confined already.
      expect(() =>
        createWebhookDispatcher({ endpoints: [], deliver: false, destinations: { resolve: resolver } }),
      ).not.toThrow();
      expect(() =>
        createWebhookDispatcher({
          endpoints: [],
          deliver: false,
          destinations: { allow: ["0.0.0.0/0", "::/0"] },
        }),
      ).not.toThrow();
    } finally {
      process_.getBuiltinModule = saved;
    }
  });
});

describe("a resolver that never answers", () => {
  it("is cut by the attempt's time-out, and the attempt fails as timed out", async () => {
    const { requests, fetch } = recordingFetch();
    const { dispatcher, attempts } = dispatcherWith({
      endpoints: [{ id: "stuck", url: "https://stuck.test/hooks", secret: SECRET }],
      fetch,
      timeoutMs: 200,
      destinations: { resolve: () => new Promise(() => undefined) },
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} } });
    await until(() => attempts.length === 1);
    expect(attempts[0]!.reason).toBe("timed out after 200 ms");
    expect(requests).toEqual([]);
  });
});

describe("an allow-list of every IPv6 address", () => {
  it("does not open the IPv4 addresses an IPv6 spelling carries (mapped, NAT64, 6to4)", () => {
    const allowAllIpv6 = { allow: ["::/0"] };
    for (const url of [
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[64:ff9b::a00:5]/",
      "http://[2002:7f00:1::]/",
    ]) {
      expect(safeParseWebhookUrl(url, allowAllIpv6).success).toBe(false);
      // An IPv4 range says so explicitly.
      expect(safeParseWebhookUrl(url, { allow: ["0.0.0.0/0", "::/0"] }).success).toBe(true);
    }
    expect(safeParseWebhookUrl("http://[fd00::1]/", allowAllIpv6).success).toBe(true);
  });
});
