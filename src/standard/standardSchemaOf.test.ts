import { describe, expect, it } from "vitest";
import * as standard from "./index.js";

const objects = Object.entries(standard) as [
  string,
  standard.StandardSchemaWithJsonSchema<unknown, unknown>,
][];

describe("the Standard Schema objects", () => {
  it("carry ~standard as the specification spells it: version 1, the vendor, validate, jsonSchema", () => {
    expect(objects).toHaveLength(34);
    for (const [name, schema] of objects) {
      const props = schema["~standard"];
      expect(Object.keys(props).sort(), name).toEqual(["jsonSchema", "validate", "vendor", "version"]);
      expect(props.version).toBe(1);
      expect(props.vendor).toBe("messaging-events");
      expect(typeof props.validate).toBe("function");
      expect(typeof props.jsonSchema.input).toBe("function");
      expect(typeof props.jsonSchema.output).toBe("function");
    }
  });

  it("are frozen: one object is shared by every user of the module", () => {
    for (const [name, schema] of objects) {
      expect(Object.isFrozen(schema), name).toBe(true);
      expect(Object.isFrozen(schema["~standard"]), name).toBe(true);
      expect(Object.isFrozen(schema["~standard"].jsonSchema), name).toBe(true);
      expect(() => {
        (schema["~standard"] as { validate: unknown }).validate = () => ({ value: 1 });
      }).toThrow(TypeError);
    }
  });

  it("validate answers synchronously with value or issues, never both", () => {
    for (const [name, schema] of objects) {
      for (const value of [undefined, {}, { type: "s.room.close", content: {} }]) {
        const result = schema["~standard"].validate(value);
        expect(result, name).not.toBeInstanceOf(Promise);
        expect(Object.keys(result), name).toHaveLength(1);
        if (result.issues !== undefined) expect(result.issues.length, name).toBeGreaterThan(0);
      }
    }
  });
});
