import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, secretsOf } from "./redactSecrets.js";

describe("redactSecrets", () => {
  it("blots out the whole Authorization value and its long parts, as written and as JSON writes them", () => {
    const secrets = secretsOf('Bearer abc"def\\ghi');
    expect(secrets).toEqual([
      'Bearer abc\\"def\\\\ghi',
      'Bearer abc"def\\ghi',
      'abc\\"def\\\\ghi',
      'abc"def\\ghi',
    ]);
    expect(redactSecrets('{"detail":"bad token Bearer abc\\"def\\\\ghi"}', secrets)).toBe(
      `{"detail":"bad token ${REDACTED}"}`,
    );
    expect(redactSecrets('{"detail":"bad token abc\\"def\\\\ghi"}', secrets)).toBe(
      `{"detail":"bad token ${REDACTED}"}`,
    );
  });

  it("leaves short parts alone: they are too common to blot out", () => {
    expect(secretsOf("Bearer abc")).toEqual(["Bearer abc"]);
    expect(redactSecrets("Bearer is required", secretsOf("Bearer abc"))).toBe("Bearer is required");
  });
});
