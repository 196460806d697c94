import { digestHex } from "../../internal/bytes.js";
import type { RedisClientLike } from "./RedisClientLike.js";

/** A Lua script run by its SHA-1 (`EVALSHA`), sent whole (`EVAL`) when the server's script cache lacks it. */
export interface RedisScript {
  run(client: RedisClientLike, keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

const sha1Hex = (text: string) => digestHex("SHA-1", text);

const isNoScript = (error: unknown): boolean => {
  try {
    return String((error as { message?: unknown })?.message ?? error).startsWith("NOSCRIPT");
  } catch {
    return false;
  }
};

/**
 * Defines a script: keys always travel in `KEYS[]` and values in `ARGV[]`, never spliced into the
 * source. After `SCRIPT FLUSH` or a server restart the first call falls back to `EVAL`, which also
 * caches the script again.
 */
export function defineRedisScript(source: string): RedisScript {
  let sha: Promise<string> | undefined;
  return {
    async run(client, keys, args) {
      sha ??= sha1Hex(source);
      const tail = [String(keys.length), ...keys, ...args];
      try {
        return await client.sendCommand(["EVALSHA", await sha, ...tail]);
      } catch (error) {
        if (!isNoScript(error)) throw error;
        return await client.sendCommand(["EVAL", source, ...tail]);
      }
    },
  };
}
