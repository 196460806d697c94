/**
 * The proof run before any timing: on every benchmark input, every peer (by each of its calls), the
 * library's guard, zod/mini and the whole-event function must give the library's answer. A
 * disagreement stops the benchmark and prints the input, so a peer schema gets fixed rather than
 * an input silently dropped.
 */
import {
  eventContentSchemas,
  isEventContent,
  safeParseEvent,
  safeParseEventContent,
} from "../../src/events/index.js";
import type { Mix } from "./mixes.js";
import type { Peer } from "./peers.js";

/** Thrown when a peer's answer differs from the library's on a benchmark input. */
export class PeerDisagreement extends Error {
  override readonly name = "PeerDisagreement";
}

/**
 * Checks every peer on every item of every mix (and a whole-event validator, if given); throws a
 * `PeerDisagreement` at the first difference. Returns how many answers it compared.
 */
export function proveAgreement(
  mixes: readonly Mix[],
  peers: readonly Peer[],
  eventValidator?: { readonly name: string; readonly check: (event: unknown) => boolean },
): number {
  let checks = 0;
  for (const mix of mixes) {
    for (const { type, content } of mix.items) {
      const library = safeParseEventContent(type, content).success;
      const fail = (who: string, said: string) => {
        throw new PeerDisagreement(
          `${who} disagrees with safeParseEventContent on ${type} (library: ${library ? "valid" : "invalid"}; ${who}: ${said}) in mix "${mix.name}":\n${JSON.stringify(content)}`,
        );
      };
      if (library !== mix.valid) fail("the mix", mix.valid ? "valid" : "invalid");
      const zod = eventContentSchemas[type].safeParse(content).success;
      if (zod !== library) fail("zod/mini schema.safeParse", String(zod));
      const event = safeParseEvent({ type, content }).success;
      if (event !== library) fail("safeParseEvent", String(event));
      if (eventValidator !== undefined && eventValidator.check({ type, content }) !== library) {
        fail(eventValidator.name, String(!library));
      }
      const guard = isEventContent(type, content);
      if (guard !== library) fail("isEventContent", String(guard));
      for (const peer of peers) {
        const valid = peer.check[type](content);
        if (valid !== library) fail(`${peer.name} ${peer.checkCall}`, valid ? "valid" : "invalid");
        const validated = peer.validate[type](content);
        if (validated !== library) fail(`${peer.name} ${peer.validCall}`, validated ? "valid" : "invalid");
        const message = peer.firstError[type](content);
        if ((message === undefined) !== library || (message !== undefined && typeof message !== "string")) {
          fail(`${peer.name} ${peer.invalidCall}`, JSON.stringify(message) ?? "undefined");
        }
        checks += 3;
      }
    }
  }
  return checks;
}
