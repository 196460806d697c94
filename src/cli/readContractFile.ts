import { readdir, readFile } from "node:fs/promises";
import { contractGenerator, distFolder, runsFromSource } from "./packageFiles.js";

/** The generator of the contract files (scripts/contracts/contractFiles.ts), as a checkout runs it. */
interface ContractGenerator {
  contractFiles(prefix: string): Promise<Map<string, unknown>>;
  fileText(value: unknown): string;
}

/** The files the generator makes whose path starts with `prefix`, and how the build writes them. */
async function generated(
  prefix: string,
): Promise<{ files: Map<string, unknown>; text: (value: unknown) => string }> {
  const generator = (await import(contractGenerator.href)) as ContractGenerator;
  return { files: await generator.contractFiles(prefix), text: generator.fileText };
}

/**
 * The text of a generated contract file, by its path under `dist/` (`json-schema/event.json`,
 * `examples/events/s.timer.json`, `openapi.json`), or `undefined` when there is none. The built
 * program reads the files the package ships, so it prints byte for byte what their subpaths export;
 * run from a checkout through tsx, it generates them from the current source with the build's own
 * generator instead (dist/ may be missing or stale there).
 */
export async function readContractFile(path: string): Promise<string | undefined> {
  if (path.includes("..") || path.includes("\\")) return undefined;
  if (runsFromSource) {
    const { files, text } = await generated(path);
    const value = files.get(path);
    return value === undefined ? undefined : text(value);
  }
  try {
    return await readFile(new URL(path, distFolder), "utf8");
  } catch {
    return undefined;
  }
}

/** The names (without `.json`) of the generated files in a folder under `dist/` (`examples/events/`). */
export async function listContractFiles(folder: string): Promise<string[]> {
  let paths: string[];
  if (runsFromSource) {
    paths = [...(await generated(folder)).files.keys()]
      .filter((path) => path.startsWith(folder) && !path.slice(folder.length).includes("/"))
      .map((path) => path.slice(folder.length));
  } else {
    try {
      paths = await readdir(new URL(folder, distFolder));
    } catch {
      paths = [];
    }
  }
  return paths
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .sort();
}
