/**
 * A TypeScript consumer project compiles against the packed package (the tarball npm would
 * publish) with moduleResolution node16, nodenext and bundler, using every subpath.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const work = `${root}.tmp/consumer/`;

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(`${work}pack`, { recursive: true });
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", `${work}pack`], {
    cwd: root,
    stdio: "pipe",
  });
  const tarball = readdirSync(`${work}pack`).find((name) => name.endsWith(".tgz"))!;
  const installed = `${work}project/node_modules/messaging-events`;
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", `${work}pack/${tarball}`, "-C", installed, "--strip-components=1"]);
  symlinkSync(`${root}node_modules/zod`, `${work}project/node_modules/zod`, "dir");
  cpSync(fileURLToPath(new URL("./consumer/", import.meta.url)), `${work}project/src/`, { recursive: true });
  writeFileSync(
    `${work}project/package.json`,
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
}, 120_000);

const settings = {
  node16: { module: "node16", moduleResolution: "node16" },
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
} as const;

describe.each(Object.entries(settings))("a consumer with moduleResolution %s", (name, options) => {
  it("compiles strictly against the packed package", () => {
    const files = [
      "src/index.mts",
      ...(name === "bundler" ? [] : ["src/index.cts"]),
      ...(name === "node16" ? [] : ["src/jsonSchema.mts"]),
    ];
    writeFileSync(
      `${work}project/tsconfig.${name}.json`,
      JSON.stringify({
        compilerOptions: {
          ...options,
          target: "es2022",
          lib: ["es2022", "dom"],
          strict: true,
          noEmit: true,
          resolveJsonModule: true,
          skipLibCheck: false,
          types: [],
        },
        files,
      }),
    );
    let output = "";
    try {
      execFileSync(
        process.execPath,
        [`${root}node_modules/typescript/bin/tsc`, "-p", `tsconfig.${name}.json`],
        {
          cwd: `${work}project`,
          stdio: "pipe",
          encoding: "utf8",
        },
      );
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  });
});
