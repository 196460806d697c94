/**
 * The peer ranges install next to what users have: a project that already depends on the oldest or
 * the newest supported major of `redis` (or on `bullmq`) installs the packed package without
 * ERESOLVE. npm resolves the whole tree (`--dry-run`, nothing written), from the registry.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const work = `${root}.tmp/peer-ranges/`;
const peers = JSON.parse(readFileSync(`${root}package.json`, "utf8")).peerDependencies as Record<
  string,
  string
>;
let tarball: string;

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(`${work}pack`, { recursive: true });
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", `${work}pack`], {
    cwd: root,
    stdio: "pipe",
  });
  tarball = `${work}pack/${readdirSync(`${work}pack`).find((name) => name.endsWith(".tgz"))!}`;
}, 120_000);

/** npm's verdict on a project with these dependencies and the packed package. */
function resolves(name: string, dependencies: Record<string, string>): string {
  const project = `${work}${name}/`;
  mkdirSync(project, { recursive: true });
  writeFileSync(
    `${project}package.json`,
    JSON.stringify({
      name,
      private: true,
      dependencies: { ...dependencies, "messaging-events": `file:${tarball}` },
    }),
  );
  try {
    execFileSync(
      "npm",
      ["install", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      { cwd: project, stdio: "pipe", encoding: "utf8" },
    );
    return "installs";
  } catch (error) {
    const output = `${(error as { stderr?: string }).stderr ?? ""}${(error as { stdout?: string }).stdout ?? ""}`;
    return output.includes("ERESOLVE") ? "ERESOLVE" : `fails: ${output.slice(0, 400)}`;
  }
}

describe("peer ranges", () => {
  it("name node-redis 4, 5 and 6 (each driven by the Redis suites), and the bullmq major that runs", () => {
    expect(peers.redis).toBe("^4.7.0 || ^5.0.0 || ^6.0.0");
    expect(peers.bullmq).toBe("^6.7.0");
    // The client BullMQ is built on, for Redis Cluster (the BullMQ Redis suites drive ioredis 5).
    expect(peers.ioredis).toBe("^5.0.0");
  });

  it.each([
    ["redis 4", { zod: "^4.5.0", redis: "4.7.1" }],
    ["redis 5", { zod: "^4.5.0", redis: "^5.0.0" }],
    ["redis 6", { zod: "^4.5.0", redis: "^6.0.0" }],
    ["bullmq 6", { zod: "^4.5.0", redis: "^6.0.0", bullmq: "^6.7.0" }],
    ["bullmq+ioredis 5", { zod: "^4.5.0", bullmq: "^6.7.0", ioredis: "^5.0.0" }],
  ])("a project on %s installs it", (name, dependencies) => {
    expect(resolves(name.replace(" ", "-"), dependencies)).toBe("installs");
  });

  it("a project on a major the library does not support is told so (the range is not wider than what runs)", () => {
    expect(resolves("redis-3", { zod: "^4.5.0", redis: "3.1.2" })).toBe("ERESOLVE");
  });
});
