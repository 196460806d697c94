/**
 * The emulator's inspector in a real browser (Debian's Chromium through playwright-core): the page
 * the built program serves at /_inspector, under its strict Content-Security-Policy, against a
 * receiver that fails each delivery's first attempt. The page must log no console error and report
 * no policy violation.
 *
 * The README's screenshot (docs/inspector.png) is written by this suite when it is missing or when
 * UPDATE_SCREENSHOT=1 is set: `UPDATE_SCREENSHOT=1 npx vitest run --config vitest.integration.config.ts test/inspector`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsClient } from "../../src/client/index.js";
import { safeParseEventContent } from "../../src/events/index.js";
import { type Browser, launchChromium, runBrowserSuites } from "./chromium.js";
import { failingOnceReceiver, type RunningEmulator, SECRET, serve } from "./emulator.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const screenshot = `${root}docs/inspector.png`;
const authorization = "Bearer inspector-test-token";

describe.runIf(runBrowserSuites)("the inspector in Chromium", () => {
  let receiver: Awaited<ReturnType<typeof failingOnceReceiver>>;
  let emulator: RunningEmulator;
  let browser: Browser;
  let page: Page;
  let problems: () => Promise<string[]>;
  /** Requests the page made to its action endpoints. */
  const actions: string[] = [];

  beforeAll(async () => {
    receiver = await failingOnceReceiver();
    emulator = await serve(
      [
        "--webhook-url",
        receiver.url,
        "--secret-env",
        "WEBHOOK_SECRET",
        "--webhook-retry-delays-ms",
        "300",
        "--authorization-env",
        "TOKEN",
      ],
      { TOKEN: authorization },
    );
    browser = await launchChromium();
    ({ page, problems } = await browser.page());
    page.on("request", (request) => {
      if (
        request.url().includes("/_inspector/api/send") ||
        request.url().includes("/_inspector/api/redeliver")
      )
        actions.push(request.url());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.stop();
    await receiver?.close();
  });

  it("is printed at start-up, opens, and shows an event created by the library's client without a reload", async () => {
    expect(emulator.log()).toContain(`inspector: ${emulator.url}/_inspector`);
    await page.goto(`${emulator.url}/_inspector`);
    await page.locator("body[data-ready]").waitFor();
    await expect.poll(() => page.locator("#live").textContent()).toContain("live");
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });

    const client = createEventsClient({ baseUrl: emulator.url, authorization });
    const { data: event } = await client.createEvent({
      type: "s.room.close",
      content: {},
      relationships: { room: { data: { type: "rooms", id: "room-42" } } },
    });
    const row = page.locator(`.vlist-row[data-kind="request"]`, { hasText: event.id });
    await row.waitFor();
    expect(await row.locator(".c-status").textContent()).toBe("201");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );

    await row.click();
    const details = page.locator("#details");
    await expect.poll(() => details.locator("h2").textContent()).toContain("POST /events");
    expect(await details.textContent()).toContain("s.room.close");
    // The Authorization value is never shown, not even in the headers.
    expect(await page.locator("body").textContent()).not.toContain("inspector-test-token");
  });

  it("checks the form with the library's validator: the message under the field, nothing sent", async () => {
    await page.locator("#toggle-send").click();
    await page.locator("#send-type").selectOption("s.message.text");
    const example = JSON.parse(readFileSync(`${root}dist/examples/events/s.message.text.json`, "utf8")) as {
      content: Record<string, unknown>;
    };
    const format = page.locator('[data-field="format"]');
    // The form starts from the package's example of the type.
    await expect.poll(() => format.locator("input").inputValue()).toBe(example.content.format);
    expect(await page.locator('[data-field="body"] input').inputValue()).toBe(example.content.body);

    const tooLong = "x".repeat(101);
    await format.locator("input").fill(tooLong);
    const before = await page.locator("#counts").textContent();
    await page.locator("#send-submit").click();
    const expected = safeParseEventContent("s.message.text", { ...example.content, format: tooLong });
    expect(expected.success).toBe(false);
    const message = expected.success ? "" : expected.error.issues[0]!.message;
    expect(message).toMatch(/format/);
    expect(await format.locator(".field-error").textContent()).toBe(message);
    expect(await format.locator("input").getAttribute("aria-invalid")).toBe("true");
    await page.waitForTimeout(300);
    expect(actions).toEqual([]);
    expect(await page.locator("#counts").textContent()).toBe(before);
  });

  it("sends a valid event: the 201, its delivery, two attempts (the receiver fails once), and a third on redeliver", async () => {
    const format = page.locator('[data-field="format"]');
    await format.locator("input").fill("text/plain");
    expect(await format.locator(".field-error").textContent()).toBe("");
    await page.locator("#send-room").fill("room-7");
    await page.locator("#send-submit").click();
    await expect.poll(() => page.locator("#send-result .status").textContent()).toBe("201 Created");
    expect(actions).toHaveLength(1);

    // The created event's request is selected when it arrives; its delivery is linked from it.
    const details = page.locator("#details");
    const delivery = details.locator("[data-delivery]");
    await delivery.waitFor();
    const deliveryId = (await delivery.getAttribute("data-delivery"))!;
    await delivery.click();
    const attempts = page.locator("#attempts > li");
    await expect.poll(() => attempts.count(), { timeout: 10_000 }).toBe(2);
    expect(await attempts.nth(0).textContent()).toContain("500 Internal Server Error");
    expect(await attempts.nth(0).textContent()).toContain("database blip");
    expect(await attempts.nth(1).textContent()).toContain("204 No Content");
    await expect.poll(() => details.locator(".state").textContent()).toBe("delivered");

    await page.locator("#redeliver").click();
    await expect.poll(() => attempts.count(), { timeout: 10_000 }).toBe(3);
    const third = attempts.nth(2);
    expect(await third.textContent()).toContain("204 No Content");
    expect(await third.textContent()).toContain("redelivered");

    // The timestamp and signature shown are the ones the receiver got, signed afresh, same delivery id.
    const got = receiver.received.get(deliveryId)!;
    expect(got).toHaveLength(3);
    expect(new Set(got.map((request) => request.headers["service-signature"])).size).toBe(3);
    const text = (await third.textContent())!;
    expect(text).toContain(String(got[2]!.headers["service-timestamp"]));
    expect(text).toContain(String(got[2]!.headers["service-signature"]));

    // Copy as curl: the attempt's headers, never the secret.
    await third.locator("button[data-curl]").click();
    const command = (await third.locator(".curl-command").textContent())!;
    expect(command).toContain(`service-webhook-id: ${deliveryId}`);
    expect(command).toContain(String(got[2]!.headers["service-signature"]));
    expect(command).not.toContain(SECRET);
    expect(await page.locator("body").textContent()).not.toContain(SECRET);
  });

  it("shows hostile documents as text, and says when one was cut", async () => {
    const hostile = "<img src=x id=injected onerror=document.title='pwned'>";
    const response = await fetch(`${emulator.url}/events`, {
      method: "POST",
      headers: {
        "content-type": "application/vnd.api+json",
        authorization,
        "service-idempotency-key": "hostile-1",
      },
      body: JSON.stringify({
        data: {
          type: "events",
          attributes: { eventType: hostile, content: { body: hostile, pad: "p".repeat(40_000) } },
        },
      }),
    });
    expect(response.status).toBe(422);
    const row = page.locator(`.vlist-row[data-kind="request"]`, { hasText: "hostile-1" });
    await row.waitFor();
    await row.click();
    const details = page.locator("#details");
    await expect.poll(() => details.locator("h2").textContent()).toContain("422");
    expect(await details.locator(".cut-note").first().textContent()).toMatch(/^Cut: only the first 16 KiB/);
    expect(await details.textContent()).toContain(hostile);
    expect(await page.locator("#injected").count()).toBe(0);
    expect(await page.title()).not.toBe("pwned");
    // The JSON:API errors of the 4xx, with their pointers.
    expect(await details.locator("table.errors").textContent()).toContain("/data/attributes/eventType");
  });

  it("filters by type, status and text", async () => {
    await page.locator("#filter-status").selectOption("4xx");
    await expect.poll(() => page.locator(".vlist-row:not([hidden])").count()).toBe(1);
    await page.locator("#filter-status").selectOption("");
    await page.locator("#filter-type").selectOption("s.room.close");
    // The client's request and its webhook delivery.
    await expect.poll(() => page.locator(".vlist-row:not([hidden])").count()).toBe(2);
    await page.locator("#filter-type").selectOption("");
    await page.locator("#filter-text").fill("room-7");
    // The sent request and its delivery (the payload's roomId).
    await expect.poll(() => page.locator(".vlist-row:not([hidden])").count()).toBe(2);
    await page.locator("#filter-text").fill("");
    await expect.poll(() => page.locator(".vlist-row:not([hidden])").count()).toBe(5);
  });

  it("makes the README's screenshot: the list, and a delivery that failed once and was redelivered", async () => {
    await page.locator("#toggle-send").click();
    await page.locator(".vlist-row", { hasText: "3 attempts" }).click();
    await page.locator("#attempts").waitFor();
    expect(await page.locator("#send-panel").isHidden()).toBe(true);
    if (!existsSync(screenshot) || process.env.UPDATE_SCREENSHOT === "1")
      writeFileSync(screenshot, await page.screenshot({ type: "png" }));
  });

  it("logged no console error and no Content-Security-Policy violation", async () => {
    expect(await problems()).toEqual([]);
  });
});

describe.runIf(runBrowserSuites)("the inspector's byte limit, in the emulator and in the page", () => {
  let emulator: RunningEmulator;
  let browser: Browser;

  beforeAll(async () => {
    emulator = await serve([]);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.stop();
  });

  it("lets the oldest records go past 16 MiB, and the page, open all along, keeps the same ones", async () => {
    const { page, problems } = await browser.page();
    await page.goto(`${emulator.url}/_inspector`);
    await page.locator("body[data-ready]").waitFor();
    // 16 KiB kept of each body, control characters that take 6 bytes each in JSON: about 96 KiB a record.
    const sent = 220;
    for (let index = 0; index < sent; index++) {
      const response = await fetch(`${emulator.url}/events`, {
        method: "POST",
        headers: { "content-type": "application/vnd.api+json", authorization: "Bearer bytes" },
        body: "\u0001".repeat(16 * 1024),
      });
      expect(response.status).toBe(400);
      await response.arrayBuffer();
    }
    const snapshot = async () => {
      const abort = new AbortController();
      const response = await fetch(`${emulator.url}/_inspector/stream`, { signal: abort.signal });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      // The first message is the snapshot, after the `retry:` line: two blank lines in all (JSON has
      // no line break). Chunks are kept apart: joining 16 MiB one chunk at a time is slow.
      const chunks: string[] = [];
      let blankLines = 0;
      while (blankLines < 2) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        blankLines += `${chunks.at(-1)?.at(-1) ?? ""}${chunk}`.split("\n\n").length - 1;
        chunks.push(chunk);
      }
      abort.abort();
      const line = /^data: .*$/m.exec(chunks.join(""))![0];
      const message = JSON.parse(line.slice("data: ".length)) as {
        limits: { historyBytes: number };
        records: { id: string }[];
      };
      return { bytes: new TextEncoder().encode(line).byteLength, ...message };
    };
    await expect
      .poll(async () => (await snapshot()).records.at(-1)?.id, { timeout: 10_000 })
      .toBe(`r${sent}`);
    const { bytes, limits, records } = await snapshot();
    expect(limits.historyBytes).toBe(16 * 1024 * 1024);
    // The newest that fit, in order, and a snapshot of at most the limit (and its envelope).
    expect(records.length).toBeGreaterThan(150);
    expect(records.length).toBeLessThan(sent);
    expect(records.map((record) => record.id)).toEqual(
      Array.from({ length: records.length }, (_, index) => `r${sent - records.length + 1 + index}`),
    );
    expect(bytes).toBeLessThanOrEqual(limits.historyBytes + 1024);
    // The page let the same records go, from the updates alone.
    await expect
      .poll(() => page.locator("#counts").textContent(), { timeout: 10_000 })
      .toMatch(new RegExp(`^${records.length} of ${records.length} shown · .*16 MiB at most`));
    expect(await problems()).toEqual([]);
    await page.close();
  });
});
