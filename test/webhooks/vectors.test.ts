/** Signatures computed by Python's hmac (scripts/webhook-vectors.py) must match, both ways, in hex and base64. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { safeVerifyWebhook, signWebhook, verifyWebhook } from "../../src/webhooks/index.js";

interface Vector {
  name: string;
  secret?: string;
  secret_hex?: string;
  timestamp: string;
  body: string;
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
  it("has the cases the spec cares about", () => {
    expect(vectors.map((vector) => vector.name)).toEqual(
      expect.arrayContaining([
        "empty body",
        "CRLF and spacing kept as sent",
        "multibyte UTF-8 in body and secret",
        "raw bytes secret",
      ]),
    );
  });

  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    "%s: signs to the expected hex and base64",
    async (_name, vector) => {
      const hex = await signWebhook({
        payload: vector.body,
        secret: secretOf(vector),
        timestamp: vector.timestamp,
      });
      expect(hex.body).toBe(vector.body);
      expect(hex.headers).toEqual({
        "content-type": "application/json",
        "service-timestamp": vector.timestamp,
        "service-signature": vector.hex,
      });
      const b64 = await signWebhook({
        payload: vector.body,
        secret: secretOf(vector),
        timestamp: vector.timestamp,
        encoding: "base64",
      });
      expect(b64.headers["service-signature"]).toBe(vector.base64);
    },
  );

  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    "%s: verifies hex (either case) and base64, and rejects a tamper",
    async (_name, vector) => {
      for (const signature of [vector.hex, vector.hex.toUpperCase(), vector.base64]) {
        const result = await safeVerifyWebhook({
          body: new TextEncoder().encode(vector.body),
          headers: { "Service-Timestamp": vector.timestamp, "SERVICE-SIGNATURE": signature },
          secret: secretOf(vector),
          now: now(vector),
        });
        if (vector.body === "") {
          // Authentic, but an empty body is not JSON.
          expect(result.error?.code).toBe("ERR_WEBHOOK_BODY_NOT_JSON");
        } else {
          expect(result.ok, result.error?.message).toBe(true);
          expect(result.payload).toEqual(JSON.parse(vector.body));
          expect(result.timestamp?.getTime()).toBe(now(vector));
        }
      }
      const tampered = await safeVerifyWebhook({
        body: `${vector.body} `,
        headers: { "service-timestamp": vector.timestamp, "service-signature": vector.hex },
        secret: secretOf(vector),
        now: now(vector),
      });
      expect(tampered.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
    },
  );

  it("verifies the exact bytes: CRLF and spacing are not normalised", async () => {
    const vector = vectors.find((candidate) => candidate.name === "CRLF and spacing kept as sent")!;
    const payload = await verifyWebhook({
      body: vector.body,
      headers: { "service-timestamp": vector.timestamp, "service-signature": vector.hex },
      secret: vector.secret!,
      now: now(vector),
    });
    const reserialised = await safeVerifyWebhook({
      body: JSON.stringify(payload),
      headers: { "service-timestamp": vector.timestamp, "service-signature": vector.hex },
      secret: vector.secret!,
      now: now(vector),
    });
    expect(reserialised.error?.code).toBe("ERR_WEBHOOK_SIGNATURE_MISMATCH");
  });
});
