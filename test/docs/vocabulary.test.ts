/**
 * One name per concept, across every subpath: the public types are walked with the TypeScript
 * compiler (every export, the options its functions take, the results they return, their members,
 * a few levels deep) and a name outside the vocabulary fails the test:
 *
 * - `secrets` (it is `secret`: one, or a list, newest first);
 * - `ok` on a result (it is `success`, then `data` or `error`, as zod's);
 * - a duration that does not say its unit is milliseconds (`toleranceSeconds`, `timeout`,
 *   `retryAfter`: durations are milliseconds named `…Ms`);
 * - `credentials` (Fetch uses that name for `"omit" | "same-origin" | "include"`).
 *
 * The command line's flags follow the same words: `--secret-env` / `--secret-file` on every command
 * that signs or verifies, durations as `--…-ms`, no `--credentials…`.
 */
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/runCli.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every public entry point: src/index.ts and each folder's index.ts but internal's. */
function entryPoints(): string[] {
  const found = [`${root}src/index.ts`];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = `${dir}/${name}`;
      if (!statSync(path).isDirectory() || name === "internal" || name === "cli") continue;
      try {
        if (statSync(`${path}/index.ts`).isFile()) found.push(`${path}/index.ts`);
      } catch {
        // A folder without an entry point.
      }
      walk(path);
    }
  };
  walk(`${root}src`);
  return found;
}

/** Why a member name is outside the vocabulary, or undefined. */
function offence(name: string): string | undefined {
  if (name === "secrets") return "secrets: the name is `secret` (one, or a list, newest first)";
  if (name === "ok") return "ok: results say `success`, then `data` or `error`";
  if (name === "credentials") return "credentials: Fetch uses this name for something else";
  if (/seconds|secs$/i.test(name)) return `${name}: durations are milliseconds named …Ms`;
  if (/^(timeout|delay|interval|ttl|lease|retention|tolerance|duration|maxAge|retryAfter|wait)$/i.test(name))
    return `${name}: a duration without its unit: name it ${name}Ms`;
  if (/(Timeout|Delay|Interval|Ttl|Lease|Retention|Tolerance|Duration)$/.test(name))
    return `${name}: a duration without its unit: name it ${name}Ms`;
  return undefined;
}

describe("one vocabulary", () => {
  it("no public type of any subpath has a member named outside it", () => {
    const files = entryPoints();
    const program = ts.createProgram(files, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const seen = new Set<ts.Type>();
    const offences = new Set<string>();
    const ours = (type: ts.Type) =>
      (type.getSymbol() ?? type.aliasSymbol)?.declarations?.some((declaration) =>
        declaration.getSourceFile().fileName.startsWith(`${root}src/`),
      ) ?? false;

    const visit = (type: ts.Type, where: string, depth: number): void => {
      if (depth > 5 || seen.has(type)) return;
      seen.add(type);
      if (type.isUnionOrIntersection()) {
        for (const part of type.types) visit(part, where, depth);
        return;
      }
      for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
        for (const parameter of signature.getParameters()) {
          const declaration = parameter.valueDeclaration ?? parameter.declarations?.[0];
          if (declaration)
            visit(
              checker.getTypeOfSymbolAtLocation(parameter, declaration),
              `${where}(${parameter.name})`,
              depth + 1,
            );
        }
        const returned = signature.getReturnType();
        const awaited = checker.getAwaitedType(returned) ?? returned;
        visit(awaited, `${where}()`, depth + 1);
      }
      if (!ours(type) && depth > 0) return;
      for (const property of type.getProperties()) {
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        if (!declaration?.getSourceFile().fileName.startsWith(`${root}src/`)) continue;
        const why = offence(property.name);
        if (why) offences.add(`${where}.${property.name}: ${why}`);
        visit(
          checker.getTypeOfSymbolAtLocation(property, declaration),
          `${where}.${property.name}`,
          depth + 1,
        );
      }
    };

    let exported = 0;
    for (const file of files) {
      const source = program.getSourceFile(file);
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) continue;
      for (const symbol of checker.getExportsOfModule(module)) {
        exported++;
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const declaration = target.declarations?.[0];
        if (!declaration) continue;
        const type =
          target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class)
            ? checker.getDeclaredTypeOfSymbol(target)
            : checker.getTypeOfSymbolAtLocation(target, declaration);
        visit(type, symbol.name, 0);
      }
    }
    expect(exported).toBeGreaterThan(100);
    expect([...offences].sort()).toEqual([]);
  });

  it("no flag of any command is named outside it, and every command that signs or verifies takes the same secret flags", () => {
    const offences: string[] = [];
    for (const command of commands) {
      const names = command.flags.map((flag) => flag.name);
      for (const name of names) {
        const camel = name.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase());
        const why =
          /secrets|credentials|webhook-secret/.test(name) || (/seconds/.test(name) && !name.endsWith("-ms"))
            ? `--${name}`
            : offence(camel) === undefined || camel.endsWith("Ms")
              ? undefined
              : `--${name}: ${offence(camel)}`;
        if (why) offences.push(`${command.name} ${why}`);
      }
      if (["sign", "verify", "serve"].includes(command.name)) {
        for (const flag of ["secret-env", "secret-file"]) {
          if (!names.includes(flag)) offences.push(`${command.name} lacks --${flag}`);
        }
      }
    }
    expect(commands.length).toBeGreaterThanOrEqual(6);
    expect(offences).toEqual([]);
  });

  it("names outside the vocabulary are caught", () => {
    for (const name of [
      "secrets",
      "ok",
      "credentials",
      "toleranceSeconds",
      "timeout",
      "leaseTimeout",
      "retryAfter",
    ])
      expect(offence(name), name).toBeDefined();
    for (const name of [
      "secret",
      "success",
      "toleranceMs",
      "timeoutMs",
      "retryAfterMs",
      "authorization",
      "data",
    ])
      expect(offence(name), name).toBeUndefined();
  });
});
