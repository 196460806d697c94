import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "../../src/webhooks/index.js";
import { runCli } from "./cli.js";

const dir = mkdtempSync(join(tmpdir(), "messaging-events-sign-"));
const secret = "cli-test-secret-7f3a";
const env = { WEBHOOK_SECRET: secret };
const payload = '{"type":"s.message.text","version":2,"content":{"body":"Hello"},"roomId":"room-42"}';
const bodyFile = join(dir, "body.json");
writeFileSync(bodyFile, payload);

const headersOf = (stdout: string) =>
  Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
  ) as Record<string, string>;

describe("messaging-events sign", () => {
  it("prints headers that the library verifies, the signature in unpadded base64url", async () => {
    const { code, stdout, stderr } = await runCli(["sign", "--secret-env", "WEBHOOK_SECRET", bodyFile], {
      env,
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const headers = headersOf(stdout);
    expect(headers["service-signature"]).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(stdout).not.toContain(secret);
    const verified = await verifyWebhook({ body: payload, headers, secret });
    expect(verified).toMatchObject({ type: "s.message.text", roomId: "room-42" });
  });

  it("signs standard input with a secret file, a fixed timestamp and hex, exactly as signWebhook does", async () => {
    const secretFile = join(dir, "secret.txt");
    writeFileSync(secretFile, `${secret}\n`);
    const timestamp = "2026-11-22T18:00:00.000Z";
    const { code, stdout } = await runCli(
      [
        "sign",
        "--secret-file",
        secretFile,
        "--timestamp",
        timestamp,
        "--encoding",
        "hex",
        "--format",
        "json",
      ],
      { input: payload },
    );
    expect(code).toBe(0);
    const expected = await signWebhook({ payload, secret, timestamp, encoding: "hex" });
    expect(JSON.parse(stdout)).toEqual({ headers: expected.headers });
  });

  it("never takes a secret from the command line, and says where to put it", async () => {
    const [onArgv, none, unset] = await Promise.all([
      runCli(["sign", "--secret", secret, bodyFile]),
      runCli(["sign", bodyFile]),
      runCli(["sign", "--secret-env", "NOT_SET_ANYWHERE", bodyFile]),
    ]);
    expect(onArgv.code).toBe(2);
    expect(onArgv.stderr).toContain("use --secret-env NAME or --secret-file PATH");
    expect(onArgv.stderr).not.toContain(secret);
    expect(none.code).toBe(2);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain("NOT_SET_ANYWHERE is not set");
  });
});

describe("messaging-events verify", () => {
  it("accepts a body with its header values, and a raw HTTP request file, printing the verdict", async () => {
    const signed = await signWebhook({ payload, secret });
    const request = join(dir, "request.http");
    writeFileSync(
      request,
      `POST /hooks HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nService-Timestamp: ${signed.headers["service-timestamp"]}\r\nService-Signature: ${signed.headers["service-signature"]}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}\n`,
    );
    const [values, file, json] = await Promise.all([
      runCli(
        [
          "verify",
          "--secret-env",
          "WEBHOOK_SECRET",
          "--timestamp",
          signed.headers["service-timestamp"],
          "--signature",
          signed.headers["service-signature"],
          bodyFile,
        ],
        { env },
      ),
      runCli(["verify", "--secret-env", "OLD", "--secret-env", "WEBHOOK_SECRET", "--request", request], {
        env: { ...env, OLD: "an-older-secret" },
      }),
      runCli(["verify", "--secret-env", "WEBHOOK_SECRET", "--request", request, "--format", "json"], { env }),
    ]);
    expect(values.code).toBe(0);
    expect(values.stdout).toMatch(/^valid: s\.message\.text, signed at /);
    expect(file.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: true,
      type: "s.message.text",
      timestamp: expect.any(String),
      signature: expect.stringMatching(/^[0-9a-f]{128}$/),
    });
  });

  it("with a wrong secret: status 1, the code, and neither the secret nor the expected signature", async () => {
    const signed = await signWebhook({ payload, secret: "the-real-secret" });
    const expected = await signWebhook({ payload, secret, timestamp: signed.headers["service-timestamp"] });
    const args = [
      "verify",
      "--secret-env",
      "WEBHOOK_SECRET",
      "--timestamp",
      signed.headers["service-timestamp"],
      "--signature",
      signed.headers["service-signature"],
      bodyFile,
    ];
    const [human, json] = await Promise.all([
      runCli(args, { env }),
      runCli([...args, "--format", "json"], { env }),
    ]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^invalid: ERR_WEBHOOK_SIGNATURE_MISMATCH: /);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, code: "ERR_WEBHOOK_SIGNATURE_MISMATCH" });
    for (const output of [human, json]) {
      const all = output.stdout + output.stderr;
      expect(all).not.toContain(secret);
      expect(all).not.toContain(expected.headers["service-signature"]);
      expect(all).not.toContain("the-real-secret");
    }
  });

  it("refuses an old capture unless checked --now near its time, and reports an invalid payload with pointers", async () => {
    const timestamp = "2026-01-01T00:00:00.000Z";
    const old = await signWebhook({ payload, secret, timestamp });
    const bad = '{"type":"s.message.text","version":3,"content":{}}';
    const badFile = join(dir, "bad.json");
    writeFileSync(badFile, bad);
    const badSigned = await signWebhook({ payload: bad, secret });
    const base = ["verify", "--secret-env", "WEBHOOK_SECRET"];
    const [tooOld, asOfThen, invalid] = await Promise.all([
      runCli([...base, "--timestamp", timestamp, "--signature", old.headers["service-signature"], bodyFile], {
        env,
      }),
      runCli(
        [
          ...base,
          "--timestamp",
          timestamp,
          "--signature",
          old.headers["service-signature"],
          "--now",
          "2026-01-01T00:01:00Z",
          bodyFile,
        ],
        { env },
      ),
      runCli(
        [
          ...base,
          "--timestamp",
          badSigned.headers["service-timestamp"],
          "--signature",
          badSigned.headers["service-signature"],
          badFile,
        ],
        { env },
      ),
    ]);
    expect(tooOld.code).toBe(1);
    expect(tooOld.stdout).toContain("ERR_WEBHOOK_TIMESTAMP_");
    expect(asOfThen.code).toBe(0);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("ERR_WEBHOOK_PAYLOAD_INVALID");
    expect(invalid.stdout).toContain("/version");
  });
});
