/**
 * Signatures computed by Python's hmac (scripts/webhook-vectors.py) must match, both ways, in the
 * four accepted spellings (base64url, lowercase and uppercase hex, padded base64).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  safeVerifyWebhookSignature,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
} from "../../src/webhooks/index.js";

interface Vector {
  name: string;
  secret?: string;
  secret_hex?: string;
  timestamp: string;
  body: string;
  base64url: string;
  hex: string;
  base64: string;
}

const { vectors } = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8")) as {
  vectors: Vector[];
};
const secretOf = (vector: Vector) =>
  vector.secret ?? Uint8Array.from(vector.secret_hex!.match(/../g)!, (pair) => Number.parseInt(pair, 16));
const now = (vector: Vector) => Date.parse(vector.timestamp);

describe("webhook test vectors (computed with Python's hmac)", () => {
  it("has the cases that matter", () => {
    expect(vectors.map((vector) => vector.name)).toEqual(
      expect.arrayContaining([
        "empty body",
        "CRLF and spacing kept as sent",
        "multibyte UTF-8 in body and secret",
        "raw bytes secret",
        "microsecond timestamp, as the service writes it",
      ]),
    );
  });

  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    "%s: signs to the expected base64url (by default), hex and base64",
    async (_name, vector) => {
      const sign = (encoding?: "base64url" | "hex" | "base64") =>
        signWebhook({
          payload: vector.body,
          secret: secretOf(vector),
          timestamp: vector.timestamp,
          encoding,
        });
      const byDefault = await sign();
      expect(byDefault.body).toBe(vector.body);
      expect(byDefault.headers).toEqual({
        "content-type": "application/json",
        "service-timestamp": vector.timestamp,
        "service-signature": vector.base64url,
      });
      expect((await sign("hex")).headers["service-signature"]).toBe(vector.hex);
      expect((await sign("base64")).headers["service-signature"]).toBe(vector.base64);
    },
  );

  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    "%s: verifies the four spellings to one normalised signature, and rejects a tamper",
    async (_name, vector) => {
      for (const signature of [vector.base64url, vector.hex, vector.hex.toUpperCase(), vector.base64]) {
        const result = await safeVerifyWebhookSignature({
          body: new TextEncoder().encode(vector.body),
          headers: { "Service-Timestamp": vector.timestamp, "SERVICE-SIGNATURE": signature },
          secret: secretOf(vector),
          now: now(vector),
        });
        if (vector.body === "") {
          // Authentic, but an empty body is not JSON.
          expect(result.error?.code).toBe("ERR_WEBHOOK_BODY_NOT_JSON");
        } else {
          expect(result.success, result.error?.message).toBe(true);
          expect(result.data).toEqual(JSON.parse(vector.body));
          expect(result.timestamp?.getTime()).toBe(now(vector));
          expect(result.signature).toBe(vector.hex);
        }
      }
      const tampered = await safeVerifyWebhookSignature({
        body: `${vector.body} `,
        headers: { "service-timestamp": vector.timestamp, "service-signature": vector.base64url },
        secret: secretOf(vector),
        now: now(vector),
      });
      expect(tampered.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
    },
  );

  it("the service's spelling (base64url, microseconds) verifies and types the payload", async () => {
    const vector = vectors.find((candidate) => candidate.name.startsWith("microsecond"))!;
    expect(vector.base64url).toMatch(/^[\w-]{86}$/);
    expect(vector.timestamp).toMatch(/\.\d{6}Z$/);
    const payload = await verifyWebhook({
      body: vector.body,
      headers: { "service-timestamp": vector.timestamp, "service-signature": vector.base64url },
      secret: secretOf(vector),
      now: now(vector) + 1000,
    });
    expect(payload.type === "s.message.text" && payload.content.body).toBe("Hello");
  });

  it("verifies the exact bytes: CRLF and spacing are not normalised", async () => {
    const vector = vectors.find((candidate) => candidate.name === "CRLF and spacing kept as sent")!;
    const headers = { "service-timestamp": vector.timestamp, "service-signature": vector.hex };
    const { payload } = await verifyWebhookSignature({
      body: vector.body,
      headers,
      secret: vector.secret!,
      now: now(vector),
    });
    const reserialised = await safeVerifyWebhookSignature({
      body: JSON.stringify(payload),
      headers,
      secret: vector.secret!,
      now: now(vector),
    });
    expect(reserialised.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
  });
});
