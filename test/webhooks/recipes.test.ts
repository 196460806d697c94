/**
 * The framework recipes of docs/receiving-webhooks.md (its `## Recipes`, one `### <Framework>` each)
 * work as a user pastes them. Each block is written out as a module beside a prelude that supplies
 * `handle` (it records payloads) and the secret, in .tmp/webhook-recipes/, where "messaging-events"
 * is this package by its own name (its exports: `dist/` after `npm run build`, for tsc and Vite
 * alike). They are compiled strictly, served on 127.0.0.1 and sent signed webhooks over real
 * sockets: a delivery is handled once and its re-signed redelivery is not, a forged signature is a
 * 401, an authentic but invalid payload a 422, and a 600 KB one is taken. Next.js gets a `NextRequest` made from the request a loopback server
 * received; Workers, Bun and Deno serve their `fetch` on Node here (their own runtimes are in
 * test/runtimes). `RECIPES_DOC` reads another page instead (the draft in test/webhooks/recipes/).
 */
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Logger } from "@nestjs/common";
import express, { type Express } from "express";
import type { FastifyInstance } from "fastify";
import type { Hono } from "hono";
import { NextRequest } from "next/server.js";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../src/webhooks/signWebhook.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const page = process.env.RECIPES_DOC ?? "docs/receiving-webhooks.md";
const workDir = join(root, ".tmp/webhook-recipes/");
const SECRET = "recipes-test-secret";
const valid = { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-1" };
const invalid = { type: "s.message.text", version: 2, content: {}, roomId: "room-1" };
/** Over the 100 KB where Express's and Nest's parsers stop by default, under the receiver's 1 MiB. */
const large = { ...valid, content: { body: "x".repeat(600_000) } };

/** Supplies what the page leaves to the reader: the secret, and `handle`, which records what it gets. */
const prelude = `import type { WebhookPayload } from "messaging-events/webhooks";
process.env.WEBHOOK_SECRET = ${JSON.stringify(SECRET)};
export const handled: WebhookPayload[] = [];
export async function handle(payload: WebhookPayload): Promise<void> {
  handled.push(payload);
}
`;

interface Served {
  readonly url: string;
  close(): Promise<void>;
}
type Recipe = Record<string, unknown>;

async function listening(server: Server, path: string): Promise<Served> {
  if (!server.listening) await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

const serveFetch = (fetch: (request: Request) => Response | Promise<Response>, path: string) =>
  listening(serve({ fetch, port: 0, hostname: "127.0.0.1" }) as Server, path);

type FetchExport = { fetch(request: Request, ...rest: unknown[]): Promise<Response> };

/** How each framework's export is served, as its own docs start it (without the listen a recipe leaves out). */
const frameworks: Record<string, (recipe: Recipe, path: string) => Promise<Served>> = {
  Express: async (recipe, path) => listening((recipe.app as Express).listen(0, "127.0.0.1"), path),
  Fastify: async (recipe, path) => {
    const app = recipe.app as FastifyInstance;
    await app.listen({ port: 0, host: "127.0.0.1" });
    const served = await listening(app.server, path);
    return { url: served.url, close: () => app.close() };
  },
  Hono: async (recipe, path) => serveFetch((recipe.app as Hono).fetch, path),
  "Next.js": async (recipe, path) => {
    const POST = recipe.POST as (request: NextRequest) => Promise<Response>;
    // As Next builds it from the Node request (NextRequestAdapter): URL, method, headers, body stream.
    const toNext = (request: Request) =>
      new NextRequest(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        duplex: "half",
      });
    return serveFetch((request) => POST(toNext(request)), path);
  },
  NestJS: async (recipe, path) => {
    const app = await (
      recipe.createApp as () => Promise<{
        listen(port: number, host: string): Promise<unknown>;
        getHttpServer(): Server;
        close(): Promise<void>;
      }>
    )();
    await app.listen(0, "127.0.0.1");
    const served = await listening(app.getHttpServer(), path);
    return { url: served.url, close: () => app.close() };
  },
  "Cloudflare Workers": async (recipe, path) => {
    const worker = recipe.default as FetchExport;
    return serveFetch((request) => worker.fetch(request, { WEBHOOK_SECRET: SECRET }, {}), path);
  },
  Bun: async (recipe, path) => serveFetch((request) => (recipe.default as FetchExport).fetch(request), path),
  Deno: async (recipe, path) => serveFetch((request) => (recipe.default as FetchExport).fetch(request), path),
};
const names = Object.keys(frameworks);

/** The first ```ts block of each `### <Framework>` under `## Recipes`, with the line it starts on. */
function recipesOf(text: string): Map<string, { code: string; line: number }> {
  const recipes = new Map<string, { code: string; line: number }>();
  const lines = text.split("\n");
  let inRecipes = false;
  let framework: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^## /.test(line)) inRecipes = /^## Recipes\s*$/.test(line);
    else if (inRecipes && /^### /.test(line)) framework = line.slice(4).trim();
    else if (inRecipes && framework !== undefined && !recipes.has(framework) && /^```ts\s*$/.test(line)) {
      const end = lines.findIndex((candidate, at) => at > index && /^```\s*$/.test(candidate));
      recipes.set(framework, { code: lines.slice(index + 1, end).join("\n"), line: index + 2 });
      index = end;
    }
  }
  return recipes;
}

/**
 * The path a recipe mounts its route on: the first `.post("…")`, or Nest's `@Controller("…")` and
 * `@Post("…")` joined; `/` for the Fetch handlers, which answer on any path.
 */
function routePathOf(code: string): string {
  const post = /\.post(?:<[^>]*>)?\(\s*"([^"]*)"/.exec(code)?.[1];
  if (post !== undefined) return post;
  const controller = /@Controller\(\s*"([^"]*)"/.exec(code)?.[1];
  const route = /@Post\(\s*"([^"]*)"/.exec(code)?.[1];
  return `/${[controller, route].filter(Boolean).join("/")}`.replace(/\/+/g, "/");
}

const fileOf = (framework: string) => `${framework.toLowerCase().replace(/[^a-z]+/g, "-")}.ts`;

const pagePath = resolve(root, page);
const recipes = existsSync(pagePath) ? recipesOf(readFileSync(pagePath, "utf8")) : new Map();

/** Compiles the prelude and the recipes in one strict program; returns its diagnostics, emits JS anyway. */
function compileRecipes(): string[] {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, "prelude.ts"), prelude);
  const files = [join(workDir, "prelude.ts")];
  const firstLines = new Map<string, number>();
  for (const [framework, { code, line }] of recipes) {
    if (!names.includes(framework)) continue;
    const file = join(workDir, fileOf(framework));
    // One line in front: `handle` comes from the prelude, which also runs first (it sets the secret).
    writeFileSync(file, `import { handle } from "./prelude.js";\n${code}\n`);
    files.push(file);
    firstLines.set(file, line);
  }
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    types: ["node"],
    // NestJS's decorators are the legacy ones, parameter decorators included.
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
  });
  // Only the files written here.
  for (const file of files) program.emit(program.getSourceFile(file));
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const { file, start } = diagnostic;
    const first = file === undefined ? undefined : firstLines.get(file.fileName);
    // Module line k (from 0, after the one line put in front) is page line first + k - 1.
    const at =
      file === undefined
        ? ""
        : first === undefined || start === undefined
          ? `${file.fileName}: `
          : `${page}:${first + file.getLineAndCharacterOfPosition(start).line - 1}: `;
    return `${at}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

let diagnostics: string[] = [];
let handled: unknown[] = [];

beforeAll(async () => {
  if (recipes.size === 0) return;
  diagnostics = compileRecipes();
  handled = ((await import(pathToFileURL(join(workDir, "prelude.js")).href)) as { handled: unknown[] })
    .handled;
  // Nest's start-up lines would fill the test output.
  Logger.overrideLogger(false);
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

const load = (framework: string) =>
  import(pathToFileURL(join(workDir, fileOf(framework).replace(/\.ts$/, ".js"))).href) as Promise<Recipe>;

/** POSTs a payload signed with `secret` as delivery `id`. */
async function send(url: string, id: string, payload: unknown, secret = SECRET): Promise<number> {
  const signed = await signWebhook({ payload, secret });
  const response = await fetch(url, {
    method: "POST",
    headers: { ...signed.headers, "service-webhook-id": id },
    body: signed.body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe(`the recipes of ${page}`, () => {
  it(`has a \`### <Framework>\` with a \`\`\`ts block under \`## Recipes\` for ${names.join(", ")}`, () => {
    expect(existsSync(pagePath), `${page} is missing`).toBe(true);
    expect(names.filter((name) => !recipes.has(name))).toEqual([]);
  });

  it("compile strictly against the built package", () => {
    expect(existsSync(join(root, "dist/webhooks/index.js")), "dist/ is missing: npm run build").toBe(true);
    expect(diagnostics).toEqual([]);
  });

  it.each(names)(
    "%s: handles a delivery once, refuses forged and invalid ones, takes 600 KB",
    async (framework) => {
      expect(recipes.has(framework), `no ### ${framework} recipe in ${page}`).toBe(true);
      const code = recipes.get(framework)?.code ?? "";
      const served = await frameworks[framework]!(await load(framework), routePathOf(code));
      try {
        handled.length = 0;
        const id = `recipe-${fileOf(framework)}`;
        expect(await send(served.url, id, valid)).toBe(204);
        expect(handled).toEqual([valid]);
        // The same delivery again, signed anew as senders do on every attempt: already processed.
        expect(await send(served.url, id, valid)).toBe(204);
        expect(await send(served.url, `${id}-forged`, valid, "not-the-secret")).toBe(401);
        expect(await send(served.url, `${id}-invalid`, invalid)).toBe(422);
        expect(handled).toHaveLength(1);
        expect(await send(served.url, `${id}-large`, large)).toBe(204);
        expect(handled).toHaveLength(2);
      } finally {
        await served.close();
      }
    },
  );

  it("Express: a JSON parser in front of the receiver is a configuration error (500), not a 401", async () => {
    const inner = (await load("Express")).app as Express;
    const app = express();
    app.use(express.json());
    app.use(inner);
    const served = await listening(
      app.listen(0, "127.0.0.1"),
      routePathOf(recipes.get("Express")?.code ?? ""),
    );
    try {
      handled.length = 0;
      expect(await send(served.url, "recipe-express-parsed", valid)).toBe(500);
      expect(handled).toEqual([]);
    } finally {
      await served.close();
    }
  });
});
