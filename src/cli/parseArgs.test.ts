import { describe, expect, it } from "vitest";
import { type FlagSpec, parseArgs } from "./parseArgs.js";
import { UsageError } from "./UsageError.js";

const specs: FlagSpec[] = [
  { name: "format", type: "string", values: ["human", "json"], description: "" },
  { name: "port", type: "string", description: "" },
  { name: "webhook-url", type: "list", description: "" },
  { name: "list", type: "boolean", description: "" },
];

describe("parseArgs", () => {
  it("reads --name value, --name=value, repeated lists, booleans, -h, - and --", () => {
    expect(
      parseArgs(
        [
          "a",
          "--format=json",
          "--port",
          "1",
          "--webhook-url",
          "x",
          "--webhook-url=y",
          "--list",
          "-",
          "-h",
          "--",
          "--port",
        ],
        specs,
      ),
    ).toEqual({
      flags: { format: "json", port: "1", "webhook-url": ["x", "y"], list: true, help: true },
      positionals: ["a", "-", "--port"],
      ordered: [
        ["format", "json"],
        ["port", "1"],
        ["webhook-url", "x"],
        ["webhook-url", "y"],
      ],
    });
  });

  it("takes any word after a flag as its value, a dash or a negative number included, but not a flag", () => {
    expect(parseArgs(["--port", "-", "--webhook-url=-x", "--webhook-url", "-5"], specs).flags).toEqual({
      port: "-",
      "webhook-url": ["-x", "-5"],
    });
    expect(() => parseArgs(["--port", "--format", "json"], specs)).toThrow("--port needs a value");
  });

  it.each([
    [["--list=yes"], "--list takes no value"],
    [["--port", "1", "--port=2"], "--port is given twice"],
    [["--format", "xml"], "--format must be human or json"],
  ])("refuses %j: %s", (argv, message) => {
    expect(() => parseArgs(argv, specs)).toThrow(message);
  });

  it.each([
    [["--prot", "1"], "did you mean --port?"],
    [["--secret=s3cr3t"], "use --secret-env NAME or --secret-file PATH"],
    [["--authorization", "Bearer x"], "use --authorization-env NAME"],
    [["--format", "jsn"], "did you mean --format json?"],
    [["--secret", "x"], "use --secret-env NAME or --secret-file PATH"],
    [["--port"], "--port VALUE"],
    [["-x"], "two dashes"],
  ])("refuses %j with the hint %j", (argv, hint) => {
    try {
      parseArgs(argv, specs);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).hint).toContain(hint);
    }
  });
});
