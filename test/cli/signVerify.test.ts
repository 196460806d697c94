import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, writeFileSync } from "node:fs";
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

/**
 * A FIFO that a writer feeds `bytes` bytes as fast as the reader takes them; resolves to how many
 * were taken when the reader closed its end (or all of them).
 */
function fedFifo(name: string, bytes: number): { path: string; written: Promise<number> } {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  const written = new Promise<number>((resolve) => {
    const stream = createWriteStream(path);
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const done = () => resolve(sent);
    stream.on("error", done);
    stream.on("close", done);
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!stream.write(chunk)) {
          stream.once("drain", pump);
          return;
        }
      }
      stream.end();
    };
    stream.on("open", pump);
  });
  return { path, written };
}

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

  it("with several secrets (newest first, from either flag), signs with the first", async () => {
    const newest = join(dir, "newest.txt");
    writeFileSync(newest, "the-newest-secret\n");
    const timestamp = "2026-11-22T18:00:00.000Z";
    const [fileFirst, envFirst] = await Promise.all([
      runCli(
        [
          "sign",
          "--secret-file",
          newest,
          "--secret-env",
          "WEBHOOK_SECRET",
          "--timestamp",
          timestamp,
          bodyFile,
        ],
        {
          env,
        },
      ),
      runCli(
        [
          "sign",
          "--secret-env",
          "WEBHOOK_SECRET",
          "--secret-file",
          newest,
          "--timestamp",
          timestamp,
          bodyFile,
        ],
        {
          env,
        },
      ),
    ]);
    expect(fileFirst.code).toBe(0);
    expect(envFirst.code).toBe(0);
    const byNewest = await signWebhook({ payload, secret: "the-newest-secret", timestamp });
    const bySecret = await signWebhook({ payload, secret, timestamp });
    expect(headersOf(fileFirst.stdout)).toEqual(byNewest.headers);
    expect(headersOf(envFirst.stdout)).toEqual(bySecret.headers);
  });

  it("never echoes a value given where a variable name or a secret file belongs", async () => {
    const value = "s3cr3t value/+=";
    const [asName, asPath, alnum] = await Promise.all([
      runCli(["sign", "--secret-env", value, bodyFile], { env: { [value]: "x" } }),
      runCli(["sign", "--secret-file", value, bodyFile]),
      // A value made only of name characters is a name that is not set: the name is said.
      runCli(["sign", "--secret-env", "ABC123", bodyFile]),
    ]);
    expect(asName.code).toBe(2);
    expect(asName.stderr).toContain("--secret-env takes the name of an environment variable");
    expect(asName.stderr).toContain("not a variable name");
    expect(asPath.code).toBe(2);
    expect(asPath.stderr).toContain("cannot read the secret file given to --secret-file: no such file");
    for (const output of [asName, asPath]) expect(output.stdout + output.stderr).not.toContain("s3cr3t");
    expect(alnum.stderr).toContain("ABC123 is not set");
  });
});

describe("every input file is read with its cap, whatever the file is", () => {
  it("sign, verify --request and send stop at the cap on /dev/zero (a size of 0 is not trusted)", async () => {
    const [sign, verify, send] = await Promise.all([
      runCli(["sign", "--secret-env", "WEBHOOK_SECRET", "--max-body-bytes", "1024", "/dev/zero"], { env }),
      runCli(
        ["verify", "--secret-env", "WEBHOOK_SECRET", "--max-body-bytes", "1024", "--request", "/dev/zero"],
        {
          env,
        },
      ),
      runCli(["send", "--base-url", "http://127.0.0.1:9", "--authorization-env", "TOKEN", "/dev/zero"], {
        env: { TOKEN: "Bearer x" },
      }),
    ]);
    expect(sign.code).toBe(2);
    expect(sign.stderr).toContain("the body /dev/zero is larger than 1024 bytes");
    expect(verify.code).toBe(2);
    expect(verify.stderr).toContain("the request file /dev/zero is larger than");
    expect(send.code).toBe(2);
    expect(send.stderr).toContain("the event /dev/zero is larger than 1048576 bytes");
  });

  it("a FIFO fed far more than the cap: the program stops reading at the cap and says why", async () => {
    const total = 64 * 1024 * 1024;
    const body = fedFifo("body.fifo", total);
    const request = fedFifo("request.fifo", total);
    const [sign, verify] = await Promise.all([
      runCli(["sign", "--secret-env", "WEBHOOK_SECRET", "--max-body-bytes", "1024", body.path], { env }),
      runCli(
        ["verify", "--secret-env", "WEBHOOK_SECRET", "--max-body-bytes", "1024", "--request", request.path],
        {
          env,
        },
      ),
    ]);
    expect(sign.code).toBe(2);
    expect(sign.stderr).toContain("is larger than 1024 bytes");
    expect(verify.code).toBe(2);
    expect(verify.stderr).toContain("is larger than");
    // The writers were cut off (the pipe closed) long before they were done.
    expect(await body.written).toBeLessThan(total);
    expect(await request.written).toBeLessThan(total);
  });

  it("a secret file is read up to 64 KiB: /dev/zero and a FIFO fed more are refused, not read", async () => {
    const fifo = fedFifo("secret.fifo", 16 * 1024 * 1024);
    const [zero, fed] = await Promise.all([
      runCli(["sign", "--secret-file", "/dev/zero", bodyFile]),
      runCli(["verify", "--secret-file", fifo.path, "--timestamp", "x", "--signature", "y", bodyFile]),
    ]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("the secret file /dev/zero is larger than 65536 bytes");
    expect(fed.code).toBe(2);
    expect(fed.stderr).toContain("is larger than 65536 bytes");
    expect(await fifo.written).toBeLessThan(16 * 1024 * 1024);
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
    expect(tooOld.stdout).toMatch(
      /^invalid: ERR_WEBHOOK_TIMESTAMP_TOO_OLD: signed \d+ (days|years) ago, outside the tolerance of 5 minutes \(.*--now.*--tolerance-ms\)\n/,
    );
    expect(asOfThen.code).toBe(0);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("ERR_WEBHOOK_PAYLOAD_INVALID");
    expect(invalid.stdout).toContain("/version");
  });

  it("--tolerance-ms widens the window in milliseconds; --tolerance (seconds) is gone", async () => {
    const timestamp = new Date(Date.now() - 3_600_000).toISOString();
    const signed = await signWebhook({ payload, secret, timestamp });
    const base = [
      "verify",
      "--secret-env",
      "WEBHOOK_SECRET",
      "--timestamp",
      timestamp,
      "--signature",
      signed.headers["service-signature"],
    ];
    const [narrow, wide, seconds] = await Promise.all([
      runCli([...base, bodyFile], { env }),
      runCli([...base, "--tolerance-ms", "7200000", bodyFile], { env }),
      runCli([...base, "--tolerance", "7200", bodyFile], { env }),
    ]);
    expect(narrow.code).toBe(1);
    expect(narrow.stdout).toContain("signed 1 hour ago, outside the tolerance of 5 minutes");
    expect(wide.code).toBe(0);
    expect(seconds.code).toBe(2);
    expect(seconds.stderr).toContain("did you mean --tolerance-ms?");
  });
});
