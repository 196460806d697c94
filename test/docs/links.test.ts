/**
 * The docs stand on their own, on the npm page and in the repository: every relative link of
 * README.md, CHANGELOG.md and docs/*.md leads to a file that exists and that the npm tarball ships, every
 * `#anchor` names a heading of its target (GitHub's slugs), and the package says where its
 * repository, home page and issue tracker are, so that npm can resolve what it shows.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** README.md, CHANGELOG.md and every page directly under docs/ (docs/api is generated, not shipped). */
const pages = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The text of a page outside fenced code blocks and inline code, where links and headings live. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      lines.push("");
      continue;
    }
    lines.push(fence === undefined ? line : "");
  }
  return lines;
}

/** Heading text as GitHub renders it: code spans, links and emphasis reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__|\*)/g, "")
    .trim();
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to "-". */
function githubSlug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a page: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

interface Link {
  readonly page: string;
  readonly line: number;
  readonly target: string;
}

/** Inline links and images, and reference definitions, outside code. */
function linksOf(page: string): Link[] {
  const links: Link[] = [];
  prose(readFileSync(join(root, page), "utf8")).forEach((text, index) => {
    const line = text.replace(/`[^`]*`/g, "");
    for (const match of line.matchAll(/!?\[(?:[^\]]|\\\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ page, line: index + 1, target: match[1]! });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) links.push({ page, line: index + 1, target: definition[1]! });
    for (const match of line.matchAll(/<a\s+[^>]*href="([^"]+)"/g)) {
      links.push({ page, line: index + 1, target: match[1]! });
    }
  });
  return links;
}

const isAbsolute = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

const links = pages.flatMap(linksOf);
const relativeLinks = links.filter((link) => !isAbsolute(link.target));

/** Where a relative link leads, from the package root, and the anchor it names. */
function resolve(link: Link): { file: string; anchor: string | undefined } {
  const hash = link.target.indexOf("#");
  const path = decodeURIComponent(hash === -1 ? link.target : link.target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
  const file = path === "" ? link.page : normalize(join(dirname(link.page), path)).replace(/\\/g, "/");
  return { file, anchor };
}

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
const urlOf = (value: unknown): unknown =>
  typeof value === "object" && value !== null ? (value as { url?: unknown }).url : value;

/** The repository's web address, from package.json (or the proposed one while it has none). */
const repositoryUrl = (() => {
  const url = urlOf(manifest.repository);
  return (typeof url === "string" ? url : "https://github.com/messaging-events/messaging-events")
    .replace(/^git\+/, "")
    .replace(/\.git$/, "");
})();

/** The `<path>#anchor` of every link to a file of the repository (`<repository>/blob/<ref>/…`) in a text. */
function repositoryTargets(text: string): string[] {
  const escaped = repositoryUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`${escaped}/(?:blob|tree)/[^/\\s]+/([^\\s)>\`"']+)`, "g");
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/**
 * Links to files of the repository, in the docs and in the JSDoc under src/: they must name a file
 * and an anchor that exist here.
 */
const repositoryLinks: Link[] = [...pages, ...sourceFiles("src")].flatMap((page) =>
  readFileSync(join(root, page), "utf8")
    .split("\n")
    .flatMap((line, index) => repositoryTargets(line).map((target) => ({ page, line: index + 1, target }))),
);

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replace(/\\/g, "/"));
}

/** Fails unless `file` exists inside the package and, when given, `anchor` is one of its headings. */
function expectTarget(file: string, anchor: string | undefined): void {
  expect(relative(root, join(root, file)).startsWith(".."), `${file} is outside the package`).toBe(false);
  expect(existsSync(join(root, file)), `${file} does not exist`).toBe(true);
  if (anchor !== undefined && anchor !== "") {
    expect(statSync(join(root, file)).isFile() && file.endsWith(".md"), `#${anchor} into ${file}`).toBe(true);
    const anchors = anchorsOf(readFileSync(join(root, file), "utf8"));
    expect([...anchors], `${file} has no heading for #${anchor}`).toContain(anchor);
  }
}

/** The files `npm pack` would put in the tarball now (no scripts run, nothing is built). */
function packedFiles(): Set<string> {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [packed] = JSON.parse(output) as [{ files: { path: string }[] }];
  return new Set(packed.files.map((file) => file.path));
}

describe("links in README.md and docs/*.md", () => {
  it("finds the pages and their links", () => {
    expect(pages).toContain("docs/readings.md");
    expect(relativeLinks.length).toBeGreaterThan(20);
  });

  it.each(relativeLinks.map((link) => [`${link.page}:${link.line} ${link.target}`, link] as const))(
    "%s resolves",
    (_name, link) => {
      const { file, anchor } = resolve(link);
      expectTarget(file, anchor);
    },
  );

  it.each(repositoryLinks.map((link) => [`${link.page}:${link.line} ${link.target}`, link] as const))(
    "repository link %s names a file and heading that exist",
    (_name, link) => {
      const hash = link.target.indexOf("#");
      expectTarget(
        decodeURIComponent(hash === -1 ? link.target : link.target.slice(0, hash)),
        hash === -1 ? undefined : decodeURIComponent(link.target.slice(hash + 1)),
      );
    },
  );

  it("ships every page and every file they link in the npm tarball", () => {
    const packed = packedFiles();
    const needed = new Set([...pages, ...relativeLinks.map((link) => resolve(link).file)]);
    const missing = [...needed].filter((file) => !packed.has(file));
    expect(missing, 'not in the tarball: add them to package.json "files" (e.g. "docs/*.md")').toEqual([]);
  });

  it("names the repository, home page and issue tracker, for npm and for absolute links", () => {
    const fields: [string, unknown, RegExp][] = [
      ["repository", urlOf(manifest.repository), /^(git\+)?https:\/\/github\.com\/[^/]+\/[^/]+?(\.git)?$/],
      ["homepage", manifest.homepage, /^https:\/\//],
      ["bugs", urlOf(manifest.bugs), /^https:\/\//],
    ];
    const wrong = fields
      .filter(([, value, pattern]) => typeof value !== "string" || !pattern.test(value))
      .map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
    expect(wrong, "package.json must say where the repository, home page and issues are").toEqual([]);
  });
});

describe("GitHub slugs", () => {
  it.each([
    ["Event attribute names", "event-attribute-names"],
    ["Webhooks: verify what the service sends", "webhooks-verify-what-the-service-sends"],
    ["Node's http module", "nodes-http-module"],
    ["The `attributes.eventType` member", "the-attributeseventtype-member"],
    ["Date-times", "date-times"],
    ["**Bold** and [a link](x.md)", "bold-and-a-link"],
  ])("%s -> #%s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it("numbers repeated headings", () => {
    expect([...anchorsOf("# A\n## Same\n## Same\n```\n## Not a heading\n```\n")]).toEqual([
      "a",
      "same",
      "same-1",
    ]);
  });
});
