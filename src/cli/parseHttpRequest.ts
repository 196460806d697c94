/** A raw HTTP/1.1 request, as captured in a file (from a proxy, `nc -l`, or a request bin). */
export interface CapturedRequest {
  readonly method: string | undefined;
  readonly target: string | undefined;
  /** The headers in order; names as written. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body bytes, exactly: cut to `Content-Length`, or de-chunked. */
  readonly body: Uint8Array;
}

/** Why a file is not an HTTP request; `code` is stable. */
export class HttpRequestFileError extends Error {
  readonly code = "ERR_HTTP_REQUEST_FILE";
}

const requestLine = /^([A-Z]+) (\S+) HTTP\/\d(?:\.\d)?$/;

function indexOfBytes(bytes: Uint8Array, pattern: readonly number[], from = 0): number {
  outer: for (let index = from; index <= bytes.length - pattern.length; index++) {
    for (let offset = 0; offset < pattern.length; offset++) {
      if (bytes[index + offset] !== pattern[offset]) continue outer;
    }
    return index;
  }
  return -1;
}

/**
 * Reads a captured request: an optional request line (`POST /hooks HTTP/1.1`), header lines, a
 * blank line, and the body. Line breaks may be CRLF or LF (an editor may have changed them in the
 * head; the body is kept byte for byte). With `Content-Length` the body is cut to that length (an
 * editor's trailing newline is not part of it); with `Transfer-Encoding: chunked` it is decoded.
 */
export function parseHttpRequest(bytes: Uint8Array): CapturedRequest {
  const crlf = indexOfBytes(bytes, [13, 10, 13, 10]);
  const lf = indexOfBytes(bytes, [10, 10]);
  let headEnd: number;
  let bodyStart: number;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) {
    headEnd = crlf;
    bodyStart = crlf + 4;
  } else if (lf !== -1) {
    headEnd = lf;
    bodyStart = lf + 2;
  } else throw new HttpRequestFileError("no blank line ends the headers");
  const head = new TextDecoder().decode(bytes.subarray(0, headEnd)).split(/\r?\n/);
  let method: string | undefined;
  let target: string | undefined;
  const first = requestLine.exec(head[0] ?? "");
  if (first !== null) {
    method = first[1];
    target = first[2];
    head.shift();
  }
  const headers: [string, string][] = [];
  for (const [index, line] of head.entries()) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new HttpRequestFileError(`header line ${index + 1} has no "name: value"`);
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  const header = (name: string) =>
    headers.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
  let body = bytes.subarray(bodyStart);
  if (header("transfer-encoding").some((value) => /chunked/i.test(value))) body = dechunk(body);
  else {
    const lengths = header("content-length");
    if (lengths.length > 0) {
      const length = lengths[0]!;
      if (!/^\d+$/.test(length) || lengths.some((other) => other !== length)) {
        throw new HttpRequestFileError("Content-Length is not one whole number");
      }
      if (Number(length) > body.length) {
        throw new HttpRequestFileError(
          `the body is shorter (${body.length} bytes) than Content-Length (${length})`,
        );
      }
      body = body.subarray(0, Number(length));
    }
  }
  return { method, target, headers, body: new Uint8Array(body) };
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = indexOfBytes(bytes, [10], offset);
    if (lineEnd === -1) throw new HttpRequestFileError("a chunk size line is missing");
    const sizeText = new TextDecoder()
      .decode(bytes.subarray(offset, lineEnd))
      .replace(/\r$/, "")
      .split(";")[0]!;
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText.trim()))
      throw new HttpRequestFileError("a chunk size is not hexadecimal");
    const size = Number.parseInt(sizeText.trim(), 16);
    offset = lineEnd + 1;
    if (size === 0) break;
    if (offset + size > bytes.length) throw new HttpRequestFileError("a chunk is cut short");
    parts.push(bytes.subarray(offset, offset + size));
    offset += size;
    if (bytes[offset] === 13) offset++;
    if (bytes[offset] === 10) offset++;
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const body = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return body;
}
