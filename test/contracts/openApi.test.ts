/**
 * The OpenAPI 3.1 document (dist/openapi.json) passes Redocly's linter with its recommended rules
 * and no problem at all (it resolves every `$ref` into the shipped JSON Schema files and checks every
 * example against its schema), describes every answer the server kit gives `POST /events`, and takes
 * its schemas from the JSON Schema files, never a copy.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createConfig, lint } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { serverAnswers } from "../../scripts/contracts/serverAnswers.js";
import { webhookExamples } from "../../scripts/contracts/webhookExamples.js";
import { signedExample } from "../../scripts/contracts/webhookHeaders.js";
import { IDEMPOTENCY_KEY_HEADER } from "../../src/idempotency/index.js";
import { webhookEventTypes } from "../../src/webhooks/index.js";
import { statusCases } from "../server/statusCases.js";
import { createAjv, readShippedSchema } from "../support/ajv.js";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
// biome-ignore lint/suspicious/noExplicitAny: a generated JSON document, read for its shape.
const read = (file: string): any => JSON.parse(readFileSync(`${dist}${file}`, "utf8"));
const openapi = read("openapi.json");

/** Every `$ref` in a document, with where it is. */
function refsOf(value: unknown, at = "#"): [string, string][] {
  if (typeof value !== "object" || value === null) return [];
  const found: [string, string][] = [];
  for (const [key, member] of Object.entries(value)) {
    if (key === "$ref" && typeof member === "string") found.push([at, member]);
    else found.push(...refsOf(member, `${at}/${key}`));
  }
  return found;
}

/** The inline schemas of a document (outside examples) that are more than a header's scalar: copies. */
function copiedSchemas(value: unknown, at = "#"): string[] {
  if (typeof value !== "object" || value === null) return [];
  const found: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (key === "examples" || key === "example") continue;
    if (key === "schema" && typeof member === "object" && member !== null && !("$ref" in member)) {
      const keywords = Object.keys(member);
      if (
        keywords.some(
          (keyword) => !["type", "format", "enum", "minimum", "minLength", "maxLength"].includes(keyword),
        )
      )
        found.push(`${at}/${key}`);
      continue;
    }
    found.push(...copiedSchemas(member, `${at}/${key}`));
  }
  return found;
}

describe("the OpenAPI document", () => {
  it("passes Redocly's linter, recommended rules, with no error and no warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lint({ ref: `${dist}openapi.json`, config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual(
      [],
    );
  });

  it("describes POST /events with its headers, every status the server kit answers, and Retry-After where it applies", async () => {
    const operation = openapi.paths["/events"].post;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      IDEMPOTENCY_KEY_HEADER,
    ]);
    expect(Object.keys(operation.requestBody.content)).toEqual(["application/vnd.api+json"]);
    expect(openapi.components.securitySchemes.credentials).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "Authorization",
    });
    const answers = await serverAnswers();
    const statuses = new Set(
      [...answers.map((answer) => answer.status), ...statusCases.map((row) => row.status)].filter(
        // 404 and 405 answer other paths and methods, which the description names in words.
        (status) => status !== 404 && status !== 405,
      ),
    );
    expect(Object.keys(operation.responses).map(Number).sort()).toEqual([...statuses].sort());
    for (const answer of answers) {
      const response = operation.responses[String(answer.status)];
      const examples = Object.values(response.content["application/vnd.api+json"].examples) as {
        value: unknown;
      }[];
      expect(
        examples.map((example) => example.value),
        `${answer.status}`,
      ).toContainEqual(answer.body);
      if (answer.headers["retry-after"] !== undefined)
        expect(response.headers["Retry-After"], `${answer.status}`).toBeDefined();
      if (answer.status >= 400) expect(response.description).toContain(answer.code);
    }
    expect(operation.responses["201"].headers).toHaveProperty("Idempotent-Replayed");
    expect(operation.responses["201"].headers).toHaveProperty("Location");
  });

  it("lists the seven webhooks with their headers, the signature scheme, and their payload files", () => {
    expect(Object.keys(openapi.webhooks)).toEqual([...webhookEventTypes]);
    for (const type of webhookEventTypes) {
      const operation = openapi.webhooks[type].post;
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
        "service-timestamp",
        "service-signature",
        "service-webhook-id",
      ]);
      expect(operation.requestBody.content["application/json"].schema).toEqual({
        $ref: `./json-schema/webhook-payload.${type}.json`,
      });
      expect(operation.description).toContain("HMAC-SHA-512");
      expect(operation.security).toEqual([{ webhookSignature: [] }]);
    }
  });

  it("takes every schema from the shipped JSON Schema files, and copies none", () => {
    const refs = refsOf(openapi).map(([, ref]) => ref);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref).toMatch(/^\.\/json-schema\/[a-z.-]+\.json(#\/.*)?$/);
      const [file, pointer] = ref.slice("./json-schema/".length).split("#");
      const schema = readShippedSchema(file!);
      let target: unknown = schema;
      for (const part of (pointer ?? "").split("/").filter(Boolean))
        target = (target as Record<string, unknown>)[part];
      expect(target, ref).toBeDefined();
    }
    expect(copiedSchemas(openapi)).toEqual([]);
  });

  it("signs its webhook examples for real: each example header is the library's signature of the first example", async () => {
    const ajv = createAjv();
    for (const type of webhookEventTypes) {
      const operation = openapi.webhooks[type].post;
      const first = webhookExamples.find((example) => example.payload.type === type)!;
      const signed = await signedExample(first.payload, "4f1c2d8e-6b3a-4e59-9d7c-2a1b0e9f8c7d");
      for (const parameter of operation.parameters as { name: string; example: string; schema: object }[]) {
        expect(parameter.example).toBe(signed.headers[parameter.name]);
        expect(ajv.validate(parameter.schema, parameter.example), parameter.name).toBe(true);
      }
    }
  });
});
