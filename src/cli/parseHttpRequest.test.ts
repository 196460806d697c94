import { describe, expect, it } from "vitest";
import { HttpRequestFileError, parseHttpRequest } from "./parseHttpRequest.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe("parseHttpRequest", () => {
  it.each([
    ["CRLF, cut to Content-Length", "POST /h HTTP/1.1\r\nContent-Length: 2\r\nA: b\r\n\r\n{}\n", "{}"],
    ["LF line breaks, no Content-Length", 'POST /h HTTP/1.1\nA: b\n\n{"x":1}', '{"x":1}'],
    ["headers only, no request line", "A: b\r\n\r\n[]", "[]"],
    [
      "chunked",
      'POST / HTTP/1.1\r\nA: b\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n',
      '{"a":1}',
    ],
  ])("%s", (_name, raw, body) => {
    const request = parseHttpRequest(bytes(raw));
    expect(text(request.body)).toBe(body);
    expect(request.headers).toContainEqual(["A", "b"]);
  });

  it.each([
    ["no blank line", "POST / HTTP/1.1\r\nA: b"],
    ["a body shorter than Content-Length", "A: b\r\nContent-Length: 10\r\n\r\n{}"],
    ["a header line without a colon", "POST / HTTP/1.1\r\nnonsense\r\n\r\n"],
  ])("refuses %s", (_name, raw) => {
    expect(() => parseHttpRequest(bytes(raw))).toThrow(HttpRequestFileError);
  });
});
