/**
 * The parts of node:http, node:https and node:net the dispatcher's transport uses, typed by hand
 * (the library's source has no Node types), and how it finds them: through
 * `process.getBuiltinModule`, never on Bun or Deno (their node:http lacks what the transport needs).
 */

export interface NodeAgentOptions {
  readonly keepAlive: boolean;
  readonly timeout: number;
  readonly ca?: string[];
}

export interface NodeRequestOptions {
  readonly host: string;
  readonly family: number;
  readonly port: number;
  readonly path: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly agent: unknown;
  readonly servername?: string;
}

export interface NodeIncomingMessage {
  readonly statusCode?: number;
  readonly statusMessage?: string;
  readonly rawHeaders: readonly string[];
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

export interface NodeClientRequest {
  on(event: "response", listener: (message: NodeIncomingMessage) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  end(chunk?: Uint8Array): unknown;
  destroy(error?: Error): unknown;
}

export interface NodeHttp {
  Agent: new (options: NodeAgentOptions) => unknown;
  request(options: NodeRequestOptions): NodeClientRequest;
}

export interface NodeModules {
  readonly http: NodeHttp;
  readonly https: NodeHttp;
  readonly net: { isIP(input: string): number };
}

interface MaybeNodeProcess {
  readonly versions?: { readonly bun?: string; readonly deno?: string };
  readonly getBuiltinModule?: (id: string) => unknown;
}

/** node:http, node:https and node:net, or `undefined` where they cannot be had as the transport needs them. */
export function loadNodeModules(): NodeModules | undefined {
  const global = globalThis as { process?: MaybeNodeProcess; Bun?: unknown; Deno?: unknown };
  const process = global.process;
  if (global.Bun !== undefined || global.Deno !== undefined) return undefined;
  if (process?.versions?.bun !== undefined || process?.versions?.deno !== undefined) return undefined;
  if (typeof process?.getBuiltinModule !== "function") return undefined;
  try {
    const http = process.getBuiltinModule("node:http") as NodeHttp | undefined;
    const https = process.getBuiltinModule("node:https") as NodeHttp | undefined;
    const net = process.getBuiltinModule("node:net") as NodeModules["net"] | undefined;
    if (typeof http?.request !== "function" || typeof https?.request !== "function") return undefined;
    if (typeof net?.isIP !== "function") return undefined;
    return { http, https, net };
  } catch {
    return undefined;
  }
}
