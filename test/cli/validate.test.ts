import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliCommand, jsonLines, runCli } from "./cli.js";

const dir = mkdtempSync(join(tmpdir(), "messaging-events-cli-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const valid = '{"type":"s.room.close","content":{}}';
const invalid = '{"type":"s.message.text","content":{"body":1}}';

describe("messaging-events (the program)", () => {
  it("prints its version, and its help with every command", async () => {
    const [version, help] = await Promise.all([runCli(["--version"]), runCli(["--help"])]);
    expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    expect(help.code).toBe(0);
    for (const command of ["validate", "schema", "sign", "verify", "send", "serve"]) {
      expect(help.stdout).toContain(`  ${command} `);
    }
  });

  it("refuses an unknown command or none with status 2 and a hint", async () => {
    const typo = await runCli(["valdate"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command "valdate"');
    expect(typo.stderr).toContain('did you mean "validate"?');
    expect((await runCli([])).code).toBe(2);
  });
});

describe("messaging-events validate", () => {
  it("explains itself in --help, detection rule and JSON shape included", async () => {
    const { code, stdout } = await runCli(["validate", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: messaging-events validate \[options\] \[files\.\.\.\]/);
    expect(stdout).toContain('an object with "data" is a JSON:API event document');
    expect(stdout).toContain('{ "file", "line"');
    expect(stdout).toContain("Examples:");
  });

  it("exits 0 on valid NDJSON from standard input, and prints only the summary", async () => {
    const { code, stdout, stderr } = await runCli(["validate"], { input: `${valid}\n${valid}\n` });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe("2 values in 1 source: 2 valid\n");
  });

  it("reports file:line, pointer and message, goes on after a malformed line, and exits 1", async () => {
    const path = file("mixed.ndjson", `${valid}\n${invalid}\nnot json {\n\n${valid}\n{"type":"s.presence"`);
    const { code, stdout } = await runCli(["validate", path]);
    expect(code).toBe(1);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe(
      `${path}:2: /content/body: content.body must be a string, not a number (invalid_type)`,
    );
    expect(lines[1]).toBe(`${path}:3: the line is not valid JSON (malformed_json)`);
    expect(lines[2]).toMatch(/:6: the line is not valid JSON.* \(malformed_json\)$/);
    expect(lines.slice(3)).toEqual(["3 values in 1 source: 2 valid, 1 invalid, 2 lines not JSON", ""]);
  });

  it("--format json: one result per value, valid ones included, with file, line, kind and issues", async () => {
    const input = `${valid}\n${invalid}\n{oops\n[${valid},{"type":"nope","content":{}}]\n`;
    const { code, stdout } = await runCli(["validate", "--format", "json", "-"], { input });
    expect(code).toBe(1);
    expect(jsonLines(stdout)).toEqual([
      { file: "<stdin>", line: 1, kind: "event", valid: true },
      {
        file: "<stdin>",
        line: 2,
        kind: "event",
        valid: false,
        code: "ERR_INVALID_EVENT_CONTENT",
        issues: [
          {
            pointer: "/content/body",
            code: "invalid_type",
            message: "content.body must be a string, not a number",
          },
        ],
      },
      {
        file: "<stdin>",
        line: 3,
        valid: false,
        code: "ERR_MALFORMED_JSON",
        issues: [
          {
            pointer: "",
            code: "malformed_json",
            message: expect.stringMatching(/^the line is not valid JSON/),
          },
        ],
      },
      { file: "<stdin>", line: 4, index: 0, kind: "event", valid: true },
      {
        file: "<stdin>",
        line: 4,
        index: 1,
        kind: "event",
        valid: false,
        code: "ERR_UNKNOWN_EVENT_TYPE",
        issues: [expect.objectContaining({ pointer: "/type", code: "unknown_event_type" })],
      },
    ]);
  });

  it("names an array element by the index --format json gives, and keeps the pointer from the element", async () => {
    const input = `[${valid},{"type":"nope","content":{}}]\n`;
    const [human, json] = await Promise.all([
      runCli(["validate"], { input }),
      runCli(["validate", "--format", "json"], { input }),
    ]);
    expect(human.stdout.split("\n")[0]).toBe(
      '<stdin>:1: [1] /type: type "nope" is not a known event type (unknown_event_type)',
    );
    expect(jsonLines(json.stdout)[1]).toMatchObject({
      line: 1,
      index: 1,
      issues: [{ pointer: "/type", code: "unknown_event_type" }],
    });
  });

  it("a line that is not UTF-8 is invalid (JSON text is UTF-8; the server answers 400 to those bytes)", async () => {
    const encoder = new TextEncoder();
    // The string member holds 0xFF: decoded leniently it would be U+FFFD, a valid body.
    const input = Buffer.concat([
      encoder.encode(`${valid}\n{"type":"s.message.text","content":{"body":"`),
      Uint8Array.from([0xff]),
      encoder.encode(`"}}\n${valid}\n`),
    ]);
    const path = file("latin1.ndjson", "");
    writeFileSync(path, input);
    const [human, json] = await Promise.all([
      runCli(["validate", path]),
      runCli(["validate", "--format", "json"], { input }),
    ]);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe(
      `${path}:2: the line is not UTF-8 text, as JSON text must be (malformed_json)\n2 values in 1 source: 2 valid, 1 line not JSON\n`,
    );
    expect(json.code).toBe(1);
    expect(jsonLines(json.stdout)).toMatchObject([
      { line: 1, valid: true },
      { line: 2, valid: false, code: "ERR_MALFORMED_JSON" },
      { line: 3, valid: true },
    ]);
  });

  it("detects documents and webhook payloads per value, and --kind forces one kind", async () => {
    const document = '{"data":{"type":"events","attributes":{"eventType":"s.room.close","content":{}}}}';
    const payload = '{"type":"s.room.close","version":2,"content":{},"roomId":"room-1"}';
    const input = `${document}\n${payload}\n${valid}\n`;
    const [detected, forced] = await Promise.all([
      runCli(["validate", "--format", "json"], { input }),
      runCli(["validate", "--format", "json", "--kind", "payload"], { input }),
    ]);
    expect(detected.code).toBe(0);
    expect(jsonLines(detected.stdout).map((result) => (result as { kind: string }).kind)).toEqual([
      "document",
      "payload",
      "event",
    ]);
    expect(forced.code).toBe(1);
    expect(jsonLines(forced.stdout).map((result) => (result as { valid: boolean }).valid)).toEqual([
      false,
      true,
      false,
    ]);
  });

  it("--attribute-names reads documents with other attribute names, and refuses names JSON:API forbids", async () => {
    const document = '{"data":{"type":"events","attributes":{"kind":"s.room.close","payload":{}}}}';
    const [ok, refused] = await Promise.all([
      runCli(["validate", "--attribute-names", "kind,payload"], { input: document }),
      runCli(["validate", "--attribute-names", "type,content"], { input: document }),
    ]);
    expect(ok.code).toBe(0);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--attribute-names");
  });

  it("reads a pretty-printed array or jq-style stream whole, with each value's own line", async () => {
    const path = file(
      "pretty.json",
      `[\n  {\n    "type": "s.room.close",\n    "content": {}\n  },\n  {\n    "type": "s.presence",\n    "content": { "status": "BUSY" }\n  }\n]\n`,
    );
    const { code, stdout } = await runCli(["validate", "--format", "json", path]);
    expect(code).toBe(1);
    expect(jsonLines(stdout)).toMatchObject([
      { line: 2, index: 0, valid: true },
      { line: 6, index: 1, valid: false, issues: [{ pointer: "/content/status" }] },
    ]);
  });

  it("skips a line longer than --max-line-bytes without holding it, and reads on", async () => {
    const long = `{"type":"s.message.text","content":{"body":"${"x".repeat(5000)}"}}`;
    const { code, stdout } = await runCli(["validate", "--max-line-bytes", "1000", "--format", "json"], {
      input: `${valid}\n${long}\n${valid}\n`,
    });
    expect(code).toBe(1);
    expect(jsonLines(stdout)).toMatchObject([
      { line: 1, valid: true },
      { line: 2, valid: false, code: "ERR_LINE_TOO_LONG" },
      { line: 3, valid: true },
    ]);
  });

  it("streams a generated NDJSON input of several megabytes and counts every line", async () => {
    const lines = 40_000;
    async function* generate() {
      for (let batch = 0; batch < lines / 1000; batch++) {
        let text = "";
        for (let index = 0; index < 1000; index++) {
          const n = batch * 1000 + index;
          text +=
            n % 997 === 0
              ? `${invalid}\n`
              : `{"type":"s.message.text","content":{"body":"message number ${n} ${"·".repeat(60)}","format":"text/plain"}}\n`;
        }
        yield text;
      }
    }
    const { code, stdout } = await runCli(["validate"], { input: generate() });
    expect(code).toBe(1);
    const invalidLines = Array.from({ length: lines }, (_, n) => n).filter((n) => n % 997 === 0).length;
    expect(stdout.split("\n").filter((line) => line.startsWith("<stdin>:"))).toHaveLength(invalidLines);
    expect(stdout).toContain(
      `${lines} values in 1 source: ${lines - invalidLines} valid, ${invalidLines} invalid\n`,
    );
  });

  it("colours only when asked by a terminal or FORCE_COLOR, never with NO_COLOR; escapes controls from the input", async () => {
    const hostile = '{"type":"s.room.close","content":{"\\u001b[31mred":1}}';
    const [plain, coloured, noColour] = await Promise.all([
      runCli(["validate"], { input: hostile }),
      runCli(["validate"], { input: hostile, env: { FORCE_COLOR: "1" } }),
      runCli(["validate"], { input: hostile, env: { FORCE_COLOR: "1", NO_COLOR: "1" } }),
    ]);
    expect(plain.stdout).not.toContain("\u001b");
    expect(plain.stdout).toContain("\\u001b[31mred");
    expect(coloured.stdout).toContain("\u001b[1m");
    expect(noColour.stdout).not.toContain("\u001b");
  });

  it("exits 2 for an unknown flag (with one hint), a bad --kind, or a file that cannot be read", async () => {
    const [flag, unknown, kind, missing] = await Promise.all([
      runCli(["validate", "--fromat", "json"]),
      runCli(["validate", "--zzzzzz"]),
      runCli(["validate", "--kind", "evnt"]),
      runCli(["validate", join(dir, "missing.ndjson")]),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('error: unknown option "--fromat"\nhint: did you mean --format?\n');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'error: unknown option "--zzzzzz"\nhint: run "messaging-events validate --help" for usage\n',
    );
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('--kind must be event, document or payload, not "evnt"');
    expect(kind.stderr).toContain("did you mean --kind event?");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
  });
});

describe("messaging-events validate: the progress line", () => {
  /** Runs the program with standard error on a terminal (util-linux `script` gives it one), its input piped in two halves half a second apart. */
  const onTerminal = (extra: string) =>
    new Promise<string>((resolve, reject) => {
      const lines = `${Array.from({ length: 2_000 }, () => valid).join("\n")}\n${invalid}\n`;
      const path = file("progress.ndjson", lines);
      const program = cliCommand()
        .map((part) => `'${part}'`)
        .join(" ");
      const child = spawn("script", [
        "-qfec",
        `sh -c "(cat '${path}'; sleep 0.5; cat '${path}') | ${program} validate ${extra} 2>&1 >/dev/null"`,
        "/dev/null",
      ]);
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      child.on("error", reject);
      child.on("close", () => resolve(output));
    });

  it("shows values, bytes, rate and problems so far on a terminal, redrawn in place and erased at the end", async () => {
    const terminal = await onTerminal("");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line sequence is what is checked.
    expect(terminal).toMatch(/\r\d+ values, \d+ KiB, [\d.]+ (KiB|MiB|B)\/s, \d+ problems? so far\u001b\[K/);
    // The last thing written to the terminal erases the line.
    expect(terminal.trimEnd().endsWith("\r\u001b[K")).toBe(true);
  });

  it("stays silent with --quiet, and on a pipe", async () => {
    expect(await onTerminal("--quiet")).not.toContain("so far");
    const { stderr } = await runCli(["validate"], { input: `${valid}\n${invalid}\n` });
    expect(stderr).toBe("");
  });
});
