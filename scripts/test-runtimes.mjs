#!/usr/bin/env node
/**
 * `npm run test:runtimes`: runs test/runtimes/conformance.js on the built package in every runtime
 * the library claims, and prints one table, runtime × check. Exits 1 if any cell fails or a
 * runtime cannot run. The runtimes come from the npm registry into test/runtimes/tools (not part
 * of `npm ci`); Chromium is Debian's, at /usr/bin/chromium (.ci/run installs it).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { start as startService } from "../test/runtimes/service.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const suite = `${root}test/runtimes/`;
const tools = `${suite}tools/`;
const work = `${root}.tmp/runtimes/`;
const toolModules = `${tools}node_modules/`;

function installTools() {
  const wanted = JSON.parse(readFileSync(`${tools}package.json`, "utf8")).devDependencies;
  const installed = Object.keys(wanted).every((name) => existsSync(`${toolModules}${name}/package.json`));
  if (installed) return;
  console.log(
    "Installing the runtimes (bun, deno, node 22 and 24, miniflare, edge-runtime, playwright-core)…",
  );
  execFileSync(
    "npm",
    ["install", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    {
      cwd: tools,
      stdio: "inherit",
    },
  );
}

/** Runs a command whose last output line is the JSON result of the suite. */
function runJson(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", timeout: 120_000, ...options });
  const line = result.stdout?.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.status}: ${(result.stderr || result.stdout || "").trim().slice(-600)}`,
    );
  }
}

async function bundle(entry, outfile, options) {
  await build({
    entryPoints: [`${suite}${entry}`],
    outfile: `${work}${outfile}`,
    bundle: true,
    logLevel: "silent",
    ...options,
  });
  return `${work}${outfile}`;
}

async function runWorkerd(serviceUrl) {
  const file = await bundle("worker-entry.js", "worker.js", {
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker"],
  });
  const { Miniflare } = await import(pathToFileURL(`${toolModules}miniflare/dist/src/index.js`).href);
  const mf = new Miniflare({
    modules: true,
    script: readFileSync(file, "utf8"),
    compatibilityDate: "2025-01-01",
  });
  try {
    const response = await mf.dispatchFetch(`http://localhost/?service=${encodeURIComponent(serviceUrl)}`);
    return await response.json();
  } finally {
    await mf.dispose();
  }
}

async function runEdge(serviceUrl) {
  const file = await bundle("edge-entry.js", "edge.js", { format: "iife", platform: "browser" });
  const { EdgeRuntime } = await import(pathToFileURL(`${toolModules}edge-runtime/dist/index.js`).href);
  const runtime = new EdgeRuntime({
    initialCode: `globalThis.__serviceUrl = ${JSON.stringify(serviceUrl)};\n${readFileSync(file, "utf8")}`,
  });
  return JSON.parse(await runtime.evaluate("globalThis.__result"));
}

/** Chromium twice: a plain page, and one under a strict Content-Security-Policy without 'unsafe-eval'. */
async function runChromium(serviceUrl, emulatorUrl) {
  const file = await bundle("browser-entry.js", "browser.js", { format: "esm", platform: "browser" });
  const service = new URL(serviceUrl).origin;
  const csp = `default-src 'self'; script-src 'self'; connect-src 'self' ${service} ${new URL(emulatorUrl).origin}`;
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const policy = url.searchParams.has("csp") ? { "content-security-policy": csp } : {};
    const scripts = { "/listen.js": `${suite}browser-listen.js`, "/suite.js": file };
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...policy });
      res.end(
        '<!doctype html><meta charset="utf-8"><script src="/listen.js"></script><script type="module" src="/suite.js"></script>',
      );
    } else if (scripts[url.pathname]) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", ...policy });
      res.end(readFileSync(scripts[url.pathname]));
    } else res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const { chromium } = await import(pathToFileURL(`${toolModules}playwright-core/index.mjs`).href);
  const profile = mkdtempSync(join(tmpdir(), "runtime-suite-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const rows = {};
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const version = context.browser()?.version() ?? "";
    for (const variant of [`Chromium ${version}`, `Chromium ${version}, strict CSP`]) {
      const query = `?service=${encodeURIComponent(serviceUrl)}&emulator=${encodeURIComponent(emulatorUrl)}${variant.includes("CSP") ? "&csp" : ""}`;
      await page.goto(`${base}${query}`);
      await page.waitForFunction(() => "resultPromise" in window, null, { timeout: 20_000 });
      const results = await page.evaluate(() => window.resultPromise);
      await page.waitForTimeout(200);
      const violations = await page.evaluate(() => window.violations);
      if (variant.includes("CSP")) {
        results["no CSP violation"] =
          violations.length === 0 ? "pass" : `fail: ${JSON.stringify(violations)}`;
      }
      rows[variant] = results;
    }
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return rows;
}

/** The recipe of one heading of docs/receiving-webhooks.md, as a module with the page's `handle`. */
async function recipeBundle(heading, outfile) {
  const guide = readFileSync(`${root}docs/receiving-webhooks.md`, "utf8");
  const section = guide.slice(guide.indexOf(`### ${heading}\n`));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error(`no recipe under "### ${heading}" in docs/receiving-webhooks.md`);
  // The page's handle: the first payload whose content says "fail-once" fails, as a database blip would.
  const prelude = `let blipped = false;
async function handle(payload: { content: unknown }): Promise<void> {
  if (!blipped && JSON.stringify(payload.content).includes("fail-once")) {
    blipped = true;
    throw new Error("a database blip");
  }
}
`;
  mkdirSync(`${work}recipes/`, { recursive: true });
  const entry = `${work}recipes/${outfile.replace(/\.js$/, ".ts")}`;
  writeFileSync(entry, `${prelude}${code}`);
  await build({
    entryPoints: [entry],
    outfile: `${work}${outfile}`,
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "silent",
  });
  return `${work}${outfile}`;
}

/** What every recipe must answer, sent over loopback: a retry after a failure, a replay, a forgery, an invalid payload. */
async function exerciseRecipe(send) {
  const { signWebhook } = await import(pathToFileURL(`${root}dist/webhooks/index.js`).href);
  const secret = "whsec_recipe";
  const request = async (payload, id, forge = false) => {
    const { body, headers } = await signWebhook({ payload, secret: forge ? "not-the-secret" : secret });
    return send(body, { ...headers, ...(id ? { "service-webhook-id": id } : {}) });
  };
  const text = (body) => ({ type: "s.message.text", version: 2, content: { body }, roomId: "room-1" });
  const statuses = [
    await request(text("fail-once"), "d-1"),
    await request(text("fail-once"), "d-1"),
    await request(text("fail-once"), "d-1"),
    await request(text("forged"), "d-2", true),
    await request({ type: "s.message.text", version: 2, content: {} }, "d-3"),
    await request(text("no id"), undefined),
  ];
  const expected = [500, 204, 204, 401, 422, 204];
  return statuses.join() === expected.join()
    ? "pass"
    : `fail: answered ${statuses.join()}, expected ${expected.join()}`;
}

/** Starts a recipe as its runtime serves it, on a free port, and exercises it. */
async function runServedRecipe(command, args, port, env) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output = (output + chunk).slice(-2000)));
  child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-2000)));
  const url = `http://127.0.0.1:${port}/hooks/messaging`;
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output.trim()}`);
      try {
        await fetch(url, { method: "POST", body: "{}" });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`did not listen on ${port} within 30 s: ${output.trim()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return await exerciseRecipe(
      async (body, headers) => (await fetch(url, { method: "POST", headers, body })).status,
    );
  } finally {
    child.kill("SIGKILL");
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function runWorkerdRecipe() {
  const file = await recipeBundle("Cloudflare Workers", "recipe-worker.js");
  const { Miniflare } = await import(pathToFileURL(`${toolModules}miniflare/dist/src/index.js`).href);
  const mf = new Miniflare({
    modules: true,
    script: readFileSync(file, "utf8"),
    compatibilityDate: "2025-01-01",
    bindings: { WEBHOOK_SECRET: "whsec_recipe" },
  });
  try {
    return await exerciseRecipe(
      async (body, headers) =>
        (await mf.dispatchFetch("http://localhost/hooks/messaging", { method: "POST", headers, body }))
          .status,
    );
  } finally {
    await mf.dispose();
  }
}

async function main() {
  if (!existsSync(`${root}dist/index.js`)) throw new Error('dist/ is missing: run "npm run build" first');
  installTools();
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const service = await startService();
  const table = {};
  const attempt = async (name, run) => {
    try {
      Object.assign(table, (await run()) ?? {});
    } catch (error) {
      table[name] = { "runs at all": `fail: ${error.message}` };
    }
  };
  const nodeSuite = [`${suite}node.mjs`];
  await attempt("Node 20 (ESM)", () => ({
    [`Node ${process.versions.node} (ESM)`]: runJson(process.execPath, nodeSuite),
  }));
  await attempt("Node 20 (CommonJS)", () => ({
    [`Node ${process.versions.node} (CommonJS)`]: runJson(process.execPath, [`${suite}node-cjs.cjs`]),
  }));
  for (const [label, binary] of [
    ["Node 22", `${toolModules}node22/bin/node`],
    ["Node 24", `${toolModules}node24/bin/node`],
  ]) {
    await attempt(label, () => {
      const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
      return { [`Node ${version.slice(1)}`]: runJson(binary, nodeSuite) };
    });
  }
  await attempt("Bun", () => {
    const bun = `${toolModules}@oven/bun-linux-x64/bin/bun`;
    return {
      [`Bun ${execFileSync(bun, ["--version"], { encoding: "utf8" }).trim()}`]: runJson(bun, nodeSuite),
    };
  });
  await attempt("Deno", () => {
    const deno = `${toolModules}@deno/linux-x64-glibc/deno`;
    const version = execFileSync(deno, ["--version"], { encoding: "utf8" }).split(" (")[0];
    const env = { ...process.env, DENO_DIR: `${work}deno-cache`, DENO_NO_UPDATE_CHECK: "1" };
    return {
      [version.replace("deno", "Deno")]: runJson(
        deno,
        ["run", "--allow-read", "--allow-net=127.0.0.1", nodeSuite[0]],
        { env },
      ),
    };
  });
  const bunBinary = `${toolModules}@oven/bun-linux-x64/bin/bun`;
  const denoBinary = `${toolModules}@deno/linux-x64-glibc/deno`;
  await attempt("Bun recipe", async () => {
    const port = await freePort();
    const file = await recipeBundle("Bun", "recipe-bun.js");
    const result = await runServedRecipe(bunBinary, ["run", file], port, {
      PORT: String(port),
      WEBHOOK_SECRET: "whsec_recipe",
    });
    return { "Bun (bun run)": { "webhook receiver recipe": result } };
  });
  await attempt("Deno recipe", async () => {
    const port = await freePort();
    const file = await recipeBundle("Deno", "recipe-deno.js");
    const result = await runServedRecipe(
      denoBinary,
      ["serve", "--allow-env", `--allow-net=127.0.0.1`, "--port", String(port), "--host", "127.0.0.1", file],
      port,
      { WEBHOOK_SECRET: "whsec_recipe", DENO_DIR: `${work}deno-cache`, DENO_NO_UPDATE_CHECK: "1" },
    );
    return { "Deno (deno serve)": { "webhook receiver recipe": result } };
  });
  await attempt("workerd", async () => ({ "workerd (miniflare)": await runWorkerd(service.url) }));
  await attempt("workerd recipe", async () => ({
    "workerd (miniflare), recipe": { "webhook receiver recipe": await runWorkerdRecipe() },
  }));
  await attempt("edge-runtime", async () => ({ "Vercel edge-runtime": await runEdge(service.url) }));
  await attempt("Chromium", async () => {
    // The command line's emulator, as a frontend developer runs it, on another origin than the page.
    const port = await freePort();
    const emulator = spawn(
      process.execPath,
      [`${root}dist/cli/main.js`, "serve", "--port", String(port), "--host", "127.0.0.1"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 20_000;
      for (;;) {
        if (emulator.exitCode !== null) throw new Error(`the emulator exited ${emulator.exitCode}`);
        try {
          await fetch(`${url}/events`, { method: "OPTIONS" });
          break;
        } catch {
          if (Date.now() > deadline) throw new Error("the emulator did not listen within 20 s");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      return await runChromium(service.url, url);
    } finally {
      emulator.kill("SIGKILL");
    }
  });
  await service.close();

  const checks = [...new Set(Object.values(table).flatMap((row) => Object.keys(row)))];
  const width = Math.max(...Object.keys(table).map((name) => name.length));
  let failures = 0;
  console.log(
    `\nRuntime suite: ${Object.keys(table).length} runtimes × ${checks.length} checks (built package, through its exports)\n`,
  );
  for (const [index, check] of checks.entries()) console.log(`  [${index + 1}] ${check}`);
  console.log(
    `\n  ${"runtime".padEnd(width)}  ${checks.map((_, index) => `[${index + 1}]`.padEnd(5)).join("")}`,
  );
  for (const [runtime, row] of Object.entries(table)) {
    const cells = checks.map((check) => {
      const value = row[check];
      if (value === undefined) return "  -  ";
      if (value === "pass") return "pass ";
      failures++;
      return "FAIL ";
    });
    console.log(`  ${runtime.padEnd(width)}  ${cells.join("")}`);
  }
  for (const [runtime, row] of Object.entries(table)) {
    for (const [check, value] of Object.entries(row))
      if (value !== "pass") console.log(`\n  ${runtime} / ${check}: ${value}`);
  }
  console.log(
    `\n${failures === 0 ? "Every cell passes" : `${failures} failing cell(s)`} ("-": not applicable: a CommonJS smoke run, or a CSP-only check).`,
  );
  const passed = Object.values(table).reduce(
    (count, row) => count + Object.values(row).filter((value) => value === "pass").length,
    0,
  );
  console.log(`runtimes: ${passed} passed, ${failures} failed`);
  writeFileSync(`${work}results.json`, JSON.stringify(table, null, 2));
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();
