#!/usr/bin/env node
/**
 * `npm run test:runtimes`: runs test/runtimes/conformance.js on the built package in every runtime
 * the library claims, and prints one table, runtime × check. Exits 1 if any cell fails or a
 * runtime cannot run. The runtimes come from the npm registry into test/runtimes/tools (not part
 * of `npm ci`); Chromium is Debian's, at /usr/bin/chromium (.ci/run installs it).
 */
import { execFileSync, spawnSync } from "node:child_process";
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
async function runChromium(serviceUrl) {
  const file = await bundle("browser-entry.js", "browser.js", { format: "esm", platform: "browser" });
  const service = new URL(serviceUrl).origin;
  const csp = `default-src 'self'; script-src 'self'; connect-src 'self' ${service}`;
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
      const query = `?service=${encodeURIComponent(serviceUrl)}${variant.includes("CSP") ? "&csp" : ""}`;
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
  await attempt("workerd", async () => ({ "workerd (miniflare)": await runWorkerd(service.url) }));
  await attempt("edge-runtime", async () => ({ "Vercel edge-runtime": await runEdge(service.url) }));
  await attempt("Chromium", () => runChromium(service.url));
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
