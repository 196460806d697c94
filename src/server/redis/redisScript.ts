import { digestHex } from "../../internal/bytes.js";
import type { RedisCommandSender } from "./toRedisCommandSender.js";

/**
 * A Lua script run by its SHA-1 (`EVALSHA`), sent whole (`EVAL`) when the server's script cache lacks it.
 * It is routed by its first key; on Redis Cluster every key it is given must be in that key's slot
 * (one key, or keys that share a hash tag).
 */
export interface RedisScript {
  run(
    send: RedisCommandSender,
    keys: readonly [string, ...string[]],
    args: readonly string[],
  ): Promise<unknown>;
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
 * source. One key per script keeps it within one cluster slot without a hash tag; several need one.
 * After `SCRIPT FLUSH` or a server restart the first call falls back to `EVAL`, which also caches
 * the script again.
 */
export function defineRedisScript(source: string): RedisScript {
  let sha: Promise<string> | undefined;
  return {
    async run(send, keys, args) {
      sha ??= sha1Hex(source);
      const key = keys[0];
      const tail = [String(keys.length), ...keys, ...args];
      try {
        return await send(key, ["EVALSHA", await sha, ...tail]);
      } catch (error) {
        // On a cluster each master has its own script cache: the fallback goes to the same master.
        if (!isNoScript(error)) throw error;
        return await send(key, ["EVAL", source, ...tail]);
      }
    },
  };
}
