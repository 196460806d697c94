/**
 * The AsyncAPI 3.0 document of the webhooks (dist/asyncapi.json) parses with @asyncapi/parser
 * without an error or a warning, passes Redocly's linter with its recommended rules, has one channel
 * for a customer's URL and one message per webhook type, refers to the payload files, and signs its
 * examples for real.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fromFile, Parser } from "@asyncapi/parser";
import { createConfig, lint } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { EXAMPLE_SECRET } from "../../scripts/contracts/webhookHeaders.js";
import { safeVerifyWebhook, webhookEventTypes } from "../../src/webhooks/index.js";
import { createAjv, readShippedSchema } from "../support/ajv.js";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const asyncapi = JSON.parse(readFileSync(`${dist}asyncapi.json`, "utf8")) as {
  channels: Record<string, unknown>;
  components: { schemas: { webhookHeaders: object }; messages: Record<string, unknown> };
};

describe("the AsyncAPI document", () => {
  it("parses with @asyncapi/parser without an error or a warning", async () => {
    const { document, diagnostics } = await fromFile(new Parser(), `${dist}asyncapi.json`).parse();
    // Severity 0 is an error, 1 a warning; 2 and 3 are information (the parser suggests AsyncAPI 3.1).
    expect(diagnostics.filter((diagnostic) => diagnostic.severity < 2).map((d) => d.message)).toEqual([]);
    expect(document?.version()).toBe("3.0.0");
    expect(
      document
        ?.allMessages()
        .all()
        .map((message) => message.name()),
    ).toEqual([...webhookEventTypes]);
    const payload = document?.allMessages().all()[0]?.payload()?.json() as { $id?: string };
    expect(payload.$id).toBe("urn:messaging-events:json-schema:webhook-payload.s.room.create");
  });

  it("passes Redocly's linter, recommended rules, with no error and no warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lint({ ref: `${dist}asyncapi.json`, config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual(
      [],
    );
  });

  it("has one channel for a customer URL, one message per webhook type, and signed examples valid against its schemas", async () => {
    expect(Object.keys(asyncapi.channels)).toEqual(["webhookUrl"]);
    const messages = Object.values(asyncapi.components.messages) as {
      name: string;
      payload: unknown;
      examples: { headers: unknown; payload: unknown }[];
    }[];
    expect(messages.map((message) => message.name)).toEqual([...webhookEventTypes]);
    const ajv = createAjv();
    const headers = ajv.compile(asyncapi.components.schemas.webhookHeaders);
    for (const message of messages) {
      expect(message.payload).toEqual({ $ref: `./json-schema/webhook-payload.${message.name}.json` });
      const payload = ajv.compile(readShippedSchema(`webhook-payload.${message.name}.json`));
      expect(message.examples.length).toBeGreaterThan(0);
      for (const example of message.examples) {
        expect(payload(example.payload), message.name).toBe(true);
        expect(headers(example.headers), JSON.stringify(headers.errors)).toBe(true);
        const verified = await safeVerifyWebhook({
          body: JSON.stringify(example.payload),
          headers: example.headers as Record<string, string>,
          secret: EXAMPLE_SECRET,
          now: Date.parse((example.headers as Record<string, string>)["service-timestamp"]!),
        });
        expect(verified.success, message.name).toBe(true);
      }
    }
  });
});
