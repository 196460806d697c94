/**
 * Debian's Chromium driven by playwright-core, launched the way the runtime suite launches it
 * (scripts/test-runtimes.mjs): `/usr/bin/chromium`, headless, a throw-away profile; no browser is
 * ever downloaded. `.ci/run` installs Chromium before the suites that need it; there a missing
 * browser fails the run, elsewhere the suites are skipped with a note.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Whether the browser suites run: always in CI (where a missing Chromium is an error), else when Chromium is there. */
export const runBrowserSuites = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!runBrowserSuites)
  console.warn(
    `${CHROMIUM} is missing: the inspector's browser suites are skipped (apt-get install chromium)`,
  );

export interface Browser {
  readonly context: BrowserContext;
  /** A new tab that records console errors, page errors and Content-Security-Policy violations. */
  page(): Promise<{ page: Page; problems: () => Promise<string[]> }>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: .ci/run installs it (apt-get install chromium)`);
  const profile = mkdtempSync(join(tmpdir(), "inspector-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 860 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  return {
    context,
    async page() {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      // Runs before the page's own script, outside its policy: collects what the policy refused.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { violations: string[] }).violations = seen;
        document.addEventListener("securitypolicyviolation", (event) =>
          seen.push(`CSP: ${event.violatedDirective} ${event.blockedURI}`),
        );
      });
      return {
        page,
        problems: async () => [
          ...problems,
          ...(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)),
        ],
      };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
