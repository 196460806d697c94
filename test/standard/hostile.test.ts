/**
 * The Standard JSON Schema converters under hostile options: a `target` added to Object.prototype
 * chooses no dialect, and the error for an unknown target never echoes a user name, password or
 * query.
 */
import { describe, expect, it } from "vitest";
import { eventSchema, messageTextContent, webhookPayloadSchema } from "../../src/standard/index.js";

const converters = [
  ["messageTextContent", messageTextContent],
  ["eventSchema", eventSchema],
  ["webhookPayloadSchema", webhookPayloadSchema],
] as const;

/** The message of what `fn` throws. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("did not throw");
}

describe.each(converters)("%s jsonSchema", (_name, schema) => {
  const { input, output } = schema["~standard"].jsonSchema;

  it("answers as without prototype pollution when Object.prototype has a target", () => {
    const expected = input({}).$schema;
    for (const polluted of ["draft-07", "openapi-3.0"]) {
      Object.defineProperty(Object.prototype, "target", {
        value: polluted,
        configurable: true,
        writable: true,
      });
      try {
        expect(input({}).$schema).toBe(expected);
        expect(output({ libraryOptions: {} }).$schema).toBe(expected);
      } finally {
        delete (Object.prototype as { target?: unknown }).target;
      }
    }
    // A target of the options' own class is still read.
    class Options {
      get target() {
        return "draft-07";
      }
    }
    expect(input(new Options()).$schema).toBe("http://json-schema.org/draft-07/schema#");
  });

  it("never echoes a URL's user name, password or query in the error for an unknown target", () => {
    for (const target of [
      "https://admin:hunter2@schemas.example/draft?token=s3cr3t",
      "https://schemas.example/openapi?api_key=s3cr3t",
    ]) {
      const message = thrown(() => input({ target }));
      expect(message).not.toMatch(/hunter2|s3cr3t|admin|api_key/);
      expect(message).toMatch(/draft-2020-12/);
    }
    // A dialect's name or URI is still quoted, so the caller sees what was asked.
    expect(thrown(() => input({ target: "openapi-3.0" }))).toContain('"openapi-3.0"');
    expect(thrown(() => input({ target: "http://json-schema.org/draft-04/schema#" }))).toContain(
      '"http://json-schema.org/draft-04/schema#"',
    );
  });
});
