#!/usr/bin/env python3
"""Writes test/webhooks/vectors.json: webhook signatures computed with Python's hmac, an
implementation independent of the library, for the test suite to check on every run.

The signed bytes are UTF-8 of "<service-timestamp>:" followed by the raw body bytes, keyed with the
UTF-8 bytes of the secret (or the raw bytes of a bytes secret), HMAC-SHA-512. Each vector carries
the MAC in the three spellings the signer writes: unpadded base64url (the service's own, and the
default), lowercase hex and padded base64.
Run: python3 scripts/webhook-vectors.py
"""
import base64
import hashlib
import hmac
import json
import pathlib

KILOBYTE_PAYLOAD = json.dumps(
    {
        "type": "s.message.text",
        "version": 2,
        "content": {"body": "Grüße aus Köln 👋 " * 40},
        "roomId": "room-42",
        "senderId": "user-7",
    },
    ensure_ascii=False,
    separators=(",", ":"),
)

CASES = [
    # name, secret (str) or secret_hex (bytes), timestamp header, body text
    ("ascii secret, compact JSON", {"secret": "whsec_test_0001"}, "2026-11-22T18:00:00.000Z",
     '{"type":"s.room.close","version":2,"content":{},"roomId":"room-42"}'),
    ("multibyte UTF-8 in body and secret", {"secret": "sécret-🔑-密钥"}, "2026-11-22T18:00:00.123Z",
     '{"type":"s.message.text","version":2,"content":{"body":"Grüße, мир, 世界 😀"}}'),
    ("empty body", {"secret": "whsec_test_0001"}, "2026-11-22T18:00:00.000Z", ""),
    ("CRLF and spacing kept as sent", {"secret": "whsec_test_0001"}, "2026-11-22T18:00:00.000Z",
     '{\r\n  "type": "s.room.create",\r\n  "version": 2,\r\n  "content": { "creatorId": "user-7" }\r\n}\r\n'),
    ("raw bytes secret", {"secret_hex": "00ff10e2a7c35b9d" * 8}, "2026-11-22T18:00:00.000Z",
     '{"type":"s.message.delete","version":2,"content":null}'),
    ("timestamp with offset", {"secret": "whsec_test_0001"}, "2026-11-22T19:30:00+01:30",
     '{"type":"s.room.close","version":2,"content":{}}'),
    ("1 KB payload", {"secret": "whsec_bench"}, "2026-11-22T18:00:00.000Z", KILOBYTE_PAYLOAD),
    # The shape of the service's published example: a timestamp with microseconds, a base64url MAC.
    ("microsecond timestamp, as the service writes it", {"secret": "whsec_test_0001"},
     "2019-05-15T12:58:34.758710Z",
     '{"type":"s.message.text","version":2,"content":{"body":"Hello"},"roomId":"room-42"}'),
]


def main() -> None:
    vectors = []
    for name, secret, timestamp, body in CASES:
        key = bytes.fromhex(secret["secret_hex"]) if "secret_hex" in secret else secret["secret"].encode("utf-8")
        mac = hmac.new(key, timestamp.encode("utf-8") + b":" + body.encode("utf-8"), hashlib.sha512).digest()
        vectors.append({
            "name": name,
            **secret,
            "timestamp": timestamp,
            "body": body,
            "base64url": base64.urlsafe_b64encode(mac).decode("ascii").rstrip("="),
            "hex": mac.hex(),
            "base64": base64.b64encode(mac).decode("ascii"),
        })
    out = pathlib.Path(__file__).resolve().parent.parent / "test" / "webhooks" / "vectors.json"
    out.write_text(json.dumps({"generator": "python3 scripts/webhook-vectors.py (hmac, hashlib.sha512)", "vectors": vectors},
                              ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {len(vectors)} vectors to {out}")


if __name__ == "__main__":
    main()
