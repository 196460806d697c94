import { describe, expect, it } from "vitest";
import {
  createWebhookRequest,
  createWebhookSigner,
  createWebhookVerifier,
  safeVerifyWebhookRequest,
  signWebhook,
  verifyWebhookRequest,
} from "./index.js";

const secret = "whsec_fetch";
const payload = { type: "s.room.create", version: 2, content: { creatorId: "user-7" } };
const signed = await signWebhook({ payload, secret });

/** A POST whose body is the given stream, with the signed headers. */
const streaming = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = signed.headers) =>
  new Request("http://localhost/hooks", { method: "POST", headers, body, duplex: "half" } as RequestInit);

/** A stream that never ends: 64 KB chunks for as long as it is read; counts what it gave. */
function endless() {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += 65_536;
      controller.enqueue(new Uint8Array(65_536).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("verifyWebhookRequest", () => {
  it("createWebhookRequest builds a signed POST that verifyWebhookRequest accepts, typed", async () => {
    const request = await createWebhookRequest("https://receiver.example/hooks", { payload, secret });
    expect(request.method).toBe("POST");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(request.headers.get("service-signature")).toMatch(/^[\w-]{86}$/);
    const verified = await verifyWebhookRequest(request, { secret });
    expect(verified).toEqual(payload);
    expect(verified.type === "s.room.create" && verified.content.creatorId).toBe("user-7");
  });

  it("reads the raw bytes: a request built from the signed body verifies", async () => {
    const again = await signWebhook({
      payload: '{"type":"s.room.close","version":2,"content":{}}\r\n',
      secret,
    });
    const request = new Request("http://localhost/hooks", {
      method: "POST",
      headers: again.headers,
      body: new TextEncoder().encode(again.body),
    });
    const result = await safeVerifyWebhookRequest(request, { secret });
    expect(result).toMatchObject({ success: true, data: { type: "s.room.close", version: 2, content: {} } });
    expect(result.signature).toMatch(/^[0-9a-f]{128}$/);
  });

  it("reads a body that arrives in many chunks", async () => {
    const bytes = new TextEncoder().encode(signed.body);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    expect(await verifyWebhookRequest(streaming(body), { secret })).toEqual(payload);
  });

  it("says so when the body was already read, or is locked", async () => {
    const read = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    await read.json();
    const locked = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    locked.body!.getReader();
    for (const request of [read, locked]) {
      const result = await safeVerifyWebhookRequest(request, { secret });
      expect(result.error?.code).toBe("ERR_WEBHOOK_BODY_USED");
      expect(result.error?.message).toMatch(/already read: verify the request before parsing it/);
    }
  });

  it("rejects a tampered request with the right code", async () => {
    const request = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    const headers = new Headers(request.headers);
    headers.set("service-timestamp", new Date(Date.now() - 3_600_000).toISOString());
    const replay = new Request(request, { headers });
    await expect(verifyWebhookRequest(replay, { secret })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    });
    const other = await createWebhookRequest("http://localhost/hooks", { payload, secret: "whsec_else" });
    await expect(verifyWebhookRequest(other, { secret })).rejects.toMatchObject({
      code: "ERR_WEBHOOK_SIGNATURE_MISMATCH",
    });
  });

  it("an authentic payload that is not a webhook payload is ERR_WEBHOOK_PAYLOAD_INVALID, 422", async () => {
    const request = await createWebhookRequest("http://localhost/hooks", {
      payload: { type: "s.room.create", version: 1, content: {} },
      secret,
    });
    const result = await safeVerifyWebhookRequest(request, { secret });
    expect(result.error).toMatchObject({ code: "ERR_WEBHOOK_PAYLOAD_INVALID", kind: "invalid", status: 422 });
    expect(result.error?.issues.length).toBeGreaterThan(0);
  });
});

describe("limits: maxBodyBytes, abort, and options before the body", () => {
  it("stops reading a never-ending body at the cap (1 MiB by default) and cancels the stream", async () => {
    const { stream, state } = endless();
    const result = await safeVerifyWebhookRequest(streaming(stream), { secret });
    expect(result.error?.code).toBe("ERR_WEBHOOK_BODY_TOO_LARGE");
    expect(result.error?.message).toMatch(/maxBodyBytes \(1048576 bytes\)/);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(1_048_576 + 4 * 65_536);
  });

  it("takes a smaller or larger cap", async () => {
    const small = await safeVerifyWebhookRequest(
      await createWebhookRequest("http://localhost/hooks", { payload, secret }),
      { secret, maxBodyBytes: 10 },
    );
    expect(small.error?.code).toBe("ERR_WEBHOOK_BODY_TOO_LARGE");
    const { stream, state } = endless();
    const large = await safeVerifyWebhookRequest(streaming(stream), { secret, maxBodyBytes: 3_000_000 });
    expect(large.error?.code).toBe("ERR_WEBHOOK_BODY_TOO_LARGE");
    expect(state.pulled).toBeGreaterThan(3_000_000);
    const exact = new TextEncoder().encode(signed.body).length;
    const fits = await safeVerifyWebhookRequest(
      await createWebhookRequest("http://localhost/hooks", { payload, secret }),
      { secret, maxBodyBytes: exact },
    );
    expect(fits.success).toBe(true);
  });

  it("refuses a Content-Length above the cap without reading", async () => {
    const { stream, state } = endless();
    const request = streaming(stream, { ...signed.headers, "content-length": "2000000" });
    const result = await safeVerifyWebhookRequest(request, { secret });
    expect(result.error?.code).toBe("ERR_WEBHOOK_BODY_TOO_LARGE");
    expect(state.pulled).toBeLessThanOrEqual(65_536);
    expect(request.bodyUsed).toBe(false);
  });

  it("honours an abort signal while a silent body is read", async () => {
    let cancelled = false;
    const silent = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const pending = safeVerifyWebhookRequest(streaming(silent), { secret, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("client went away")), 20);
    const result = await pending;
    expect(result.error?.code).toBe("ERR_WEBHOOK_ABORTED");
    expect((result.error?.cause as Error | undefined)?.message).toBe("client went away");
    expect(cancelled).toBe(true);
    const already = await safeVerifyWebhookRequest(streaming(endless().stream), {
      secret,
      signal: AbortSignal.abort(),
    });
    expect(already.error?.code).toBe("ERR_WEBHOOK_ABORTED");
  });

  it("a body stream that errors is ABORTED, with the stream's error as the cause", async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    const result = await safeVerifyWebhookRequest(streaming(failing), { secret });
    expect(result.error?.code).toBe("ERR_WEBHOOK_ABORTED");
    expect((result.error?.cause as Error | undefined)?.message).toBe("connection reset");
  });

  it("times out a body that never arrives, with no signal (timeoutMs)", async () => {
    let cancelled = false;
    const silent = () =>
      new ReadableStream<Uint8Array>({
        cancel() {
          cancelled = true;
        },
      });
    const result = await safeVerifyWebhookRequest(streaming(silent()), { secret, timeoutMs: 30 });
    expect(result.error).toMatchObject({ code: "ERR_WEBHOOK_ABORTED", status: 408 });
    expect(result.error?.message).toBe(
      "timed out: the request body was not read to the end within timeoutMs (30 ms)",
    );
    expect(cancelled).toBe(true);
    const verifier = createWebhookVerifier({ secret, timeoutMs: 30 });
    expect((await verifier.safeVerifyRequest(streaming(silent()))).error?.message).toMatch(/^timed out/);
    const perCall = await verifier.safeVerifyRequest(streaming(silent()), { timeoutMs: 20 });
    expect(perCall.error?.message).toMatch(/within timeoutMs \(20 ms\)/);
  });

  it("a body that arrives in time is not cut by the time-out", async () => {
    const request = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    expect((await safeVerifyWebhookRequest(request, { secret, timeoutMs: 5_000 })).success).toBe(true);
  });

  it("a body too large answers 413", async () => {
    const result = await safeVerifyWebhookRequest(streaming(endless().stream), { secret, maxBodyBytes: 10 });
    expect(result.error).toMatchObject({
      code: "ERR_WEBHOOK_BODY_TOO_LARGE",
      kind: "authentication",
      status: 413,
    });
  });

  it.each([
    ["an empty secret", { secret: "" }, "ERR_WEBHOOK_SECRET_INVALID"],
    ["a negative tolerance", { secret, toleranceMs: -1 }, "ERR_WEBHOOK_INVALID_INPUT"],
    ["a bad maxBodyBytes", { secret, maxBodyBytes: Number.NaN }, "ERR_WEBHOOK_INVALID_INPUT"],
    ["a maxBodyBytes string", { secret, maxBodyBytes: "10" }, "ERR_WEBHOOK_INVALID_INPUT"],
    ["a fractional maxBodyBytes", { secret, maxBodyBytes: 10.5 }, "ERR_WEBHOOK_INVALID_INPUT"],
    [
      "a maxBodyBytes object",
      { secret, maxBodyBytes: { valueOf: (): number => 10, toString: (): string => "10\nFORGED" } },
      "ERR_WEBHOOK_INVALID_INPUT",
    ],
    ["a zero timeoutMs", { secret, timeoutMs: 0 }, "ERR_WEBHOOK_INVALID_INPUT"],
    ["a timeoutMs string", { secret, timeoutMs: "30000" }, "ERR_WEBHOOK_INVALID_INPUT"],
    ["a bad signal", { secret, signal: "soon" }, "ERR_WEBHOOK_INVALID_INPUT"],
    ["a missing header", { secret, headers: {} }, "ERR_WEBHOOK_HEADER_MISSING"],
  ])("checks %s before the body is touched", async (_name, options, code) => {
    const { stream, state } = endless();
    const request = streaming(stream, "headers" in options ? {} : signed.headers);
    const result = await safeVerifyWebhookRequest(request, options as never);
    expect(result.error?.code).toBe(code);
    expect(result.error?.message).not.toMatch(/FORGED|\n/);
    expect(request.bodyUsed).toBe(false);
    expect(state.pulled).toBeLessThanOrEqual(65_536);
  });

  it("a request that is a revoked proxy says what it is", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const result = await safeVerifyWebhookRequest(proxy as never, { secret });
    expect(result.error?.code).toBe("ERR_WEBHOOK_INVALID_INPUT");
    expect(result.error?.message).toMatch(/not a Fetch Request/);
  });

  it("a secret in place of the options says how to call it", async () => {
    const request = await createWebhookRequest("http://localhost/hooks", { payload, secret });
    for (const options of ["k", undefined, new TextEncoder().encode("k"), {}]) {
      const result = await safeVerifyWebhookRequest(request, options as never);
      expect(result.error?.code).toBe("ERR_WEBHOOK_INVALID_INPUT");
      expect(result.error?.message).toBe(
        "pass the options as an object: verifyWebhookRequest(request, { secret })",
      );
    }
    expect(request.bodyUsed).toBe(false);
  });

  it("something other than a Fetch Request says what to use instead", async () => {
    const nodeLike = { headers: { ...signed.headers }, body: signed.body, method: "POST" };
    const result = await safeVerifyWebhookRequest(nodeLike as never, { secret });
    expect(result.error?.code).toBe("ERR_WEBHOOK_INVALID_INPUT");
    expect(result.error?.message).toMatch(
      /^request is an object, not a Fetch Request: .*verifyWebhook\(\{ body, headers, secret \}\)/,
    );
  });
});

describe("the signer and the verifier work on requests too", () => {
  it("verifyRequest and safeVerifyRequest, with the verifier's cap", async () => {
    const signer = createWebhookSigner({ secret });
    const verifier = createWebhookVerifier({ secret, maxBodyBytes: 4096 });
    const request = await signer.createRequest(new URL("http://localhost/hooks"), { payload });
    expect(await verifier.verifyRequest(request)).toEqual(payload);
    const late = await signer.createRequest("http://localhost/hooks", {
      payload,
      timestamp: Date.now() - 400_000,
    });
    await expect(verifier.verifyRequest(late)).rejects.toMatchObject({
      code: "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    });
    const lateAgain = await signer.createRequest("http://localhost/hooks", {
      payload,
      timestamp: Date.now() - 400_000,
    });
    const result = await verifier.safeVerifyRequest(lateAgain, { now: Date.now() - 400_000 });
    expect(result.success && result.data.type).toBe("s.room.create");
    const { stream, state } = endless();
    expect((await verifier.safeVerifyRequest(streaming(stream))).error?.code).toBe(
      "ERR_WEBHOOK_BODY_TOO_LARGE",
    );
    expect(state.cancelled).toBe(true);
  });
});
