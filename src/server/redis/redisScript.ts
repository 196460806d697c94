import { digestHex } from "../../internal/bytes.js";
import type { RedisCommandSender } from "./toRedisCommandSender.js";

/**
 * A Lua script run by its SHA-1 (`EVALSHA`), sent whole (`EVAL`) when the server's script cache lacks it.
 * It touches one key, `KEYS[1]`, so it runs on Redis Cluster too: every command goes to that key's slot.
 */
export interface RedisScript {
  run(send: RedisCommandSender, key: string, args: readonly string[]): Promise<unknown>;
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
 * Defines a script of one key: the key always travels in `KEYS[1]` and values in `ARGV[]`, never
 * spliced into the source. One key per script keeps it within one cluster slot without a hash tag.
 * After `SCRIPT FLUSH` or a server restart the first call falls back to `EVAL`, which also caches
 * the script again.
 */
export function defineRedisScript(source: string): RedisScript {
  let sha: Promise<string> | undefined;
  return {
    async run(send, key, args) {
      sha ??= sha1Hex(source);
      const tail = ["1", key, ...args];
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
