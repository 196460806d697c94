import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactJson, redactSecrets, secretsOf } from "./redactSecrets.js";

const authorization = "Bearer sk_live/AbCdEf+GhIj=Kl";
const token = "sk_live/AbCdEf+GhIj=Kl";
const secrets = secretsOf([authorization]);

describe("secretsOf", () => {
  it("takes the whole Authorization value and its parts of 8 characters or more, longest first", () => {
    expect(secretsOf([authorization])).toEqual([authorization, token]);
    expect(secretsOf(["Bearer abc"])).toEqual(["Bearer abc"]);
  });

  it("takes every value given (a refreshed token and the one before), each once", () => {
    expect(secretsOf(["Bearer token-old-1234", "Bearer token-new-12345", "Bearer token-old-1234"])).toEqual([
      "Bearer token-new-12345",
      "Bearer token-old-1234",
      "token-new-12345",
      "token-old-1234",
    ]);
  });

  it("also takes the decoded user:password and password of a Basic credential", () => {
    const basic = `Basic ${btoa("alice:correct-horse")}`;
    expect(secretsOf([basic])).toEqual(expect.arrayContaining(["alice:correct-horse", "correct-horse"]));
    expect(redactSecrets("user alice:correct-horse refused", secretsOf([basic]))).toBe(
      `user ${REDACTED} refused`,
    );
  });
});

describe("redactSecrets", () => {
  const hex = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  it.each([
    ["as written", `bad ${authorization}!`],
    ["in another letter case", `bad ${authorization.toUpperCase()}!`],
    ["with JSON's escaped solidus", `bad ${authorization.replaceAll("/", "\\/")}!`],
    ["with every character a \\u escape", `bad ${[...authorization].map(hex).join("")}!`],
    [
      "with upper-case \\u escapes",
      `bad ${[...token].map((c) => hex(c).toUpperCase().replace("\\U", "\\u")).join("")}!`,
    ],
    [
      "with JavaScript's \\x and \\u{} escapes",
      `bad ${token.replace("/", "\\x2f").replace("+", "\\u{2B}")}!`,
    ],
    ["percent-encoded", `bad ${encodeURIComponent(authorization)}!`],
    ["form-encoded", `bad ${new URLSearchParams({ a: authorization }).toString().slice(2)}!`],
    [
      "as HTML character references",
      `bad ${token.replace("/", "&#x2F;").replace("+", "&#43;").replace("=", "&equals;")}!`,
    ],
    ["escaped twice", `bad ${JSON.stringify(JSON.stringify(token.replaceAll("/", "\\/"))).slice(1, -1)}!`],
    ["percent-encoded inside a JSON escape", `bad ${token.replace("/", "\\u0025\\u0032\\u0046")}!`],
  ])("blots out a credential %s", (_how, text) => {
    const clean = redactSecrets(text, secrets);
    expect(clean).toContain(REDACTED);
    expect(clean.toLowerCase()).not.toContain(token.toLowerCase());
    expect(clean.startsWith("bad ")).toBe(true);
  });

  it("leaves a text without the secrets as it is, escapes included", () => {
    const text = 'path C:\\temp\\new, 100% sure, a+b & "c" \\u0041';
    expect(redactSecrets(text, secrets)).toBe(text);
    expect(redactSecrets("Bearer is required", secretsOf(["Bearer abc"]))).toBe("Bearer is required");
  });

  it("never lets a credential through, however a service escaped some of its characters", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9/+=._~"\\-]{8,30}$/),
        fc.array(fc.constantFrom("plain", "json", "solidus", "unicode", "percent", "entity"), {
          minLength: 30,
          maxLength: 30,
        }),
        fc.string({ maxLength: 10 }),
        (secret, ways, around) => {
          const written = [...secret]
            .map((char, index) => {
              switch (ways[index]) {
                case "json":
                  return JSON.stringify(char).slice(1, -1);
                case "solidus":
                  return char === "/" ? "\\/" : JSON.stringify(char).slice(1, -1);
                case "unicode":
                  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
                case "percent":
                  return `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
                case "entity":
                  return `&#${char.charCodeAt(0)};`;
                default:
                  return char;
              }
            })
            .join("");
          const clean = redactSecrets(`${around}${written}${around}`, secretsOf([`Token ${secret}`]));
          expect(clean.toLowerCase()).not.toContain(secret.toLowerCase());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("redactJson", () => {
  it("blots out every string and member name, at any depth, in place, and says so", () => {
    const value = JSON.parse(
      `{"a":[{"${token.replace("/", "\\/")}":"x"}],"__proto__":"${authorization}","b":{"c":"fine"}}`,
    ) as Record<string, unknown>;
    const result = redactJson(value, secrets);
    expect(result.changed).toBe(true);
    expect(JSON.stringify(result.value)).not.toContain(token);
    expect(JSON.stringify(result.value)).toBe(
      `{"a":[{"${REDACTED}":"x"}],"__proto__":"${REDACTED}","b":{"c":"fine"}}`,
    );
    expect(Object.getOwnPropertyDescriptor(result.value, "__proto__")?.value).toBe(REDACTED);
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
  });

  it("says nothing changed when nothing held a secret, and costs no stack for deep values", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}"x"${"]".repeat(100_000)}`);
    expect(redactJson(deep, secrets).changed).toBe(false);
    expect(redactJson("plain", secrets)).toEqual({ value: "plain", changed: false });
  });
});
