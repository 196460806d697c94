import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_API_MEDIA_TYPE } from "../../jsonapi/index.js";
import type { NodeRequestLike, NodeResponseLike } from "../../server/index.js";
import type { ChaosFailure } from "./createChaos.js";
import { shown, time } from "./emulatorLog.js";

/** A JSON:API error document with one error. */
function errorBody(status: number, code: string, title: string, detail: string): string {
  return JSON.stringify({ errors: [{ status: String(status), code, title, detail }] });
}

/** How the emulator fails a request on purpose, and sends the late answers when it closes. */
export interface ChaosAnswers {
  /** Fails one request as `failure` says, and logs it. */
  fail(req: IncomingMessage, res: ServerResponse, failure: ChaosFailure): void;
  /** Sends every late (`slow`) answer now: the emulator is closing. */
  sendLateAnswers(): void;
}

/**
 * The chaos failures of the emulator's requests: `503` and `429` answered without handling the
 * request; `drop` handled by `listener` (the event may be created) but the connection destroyed
 * instead of an answer; `slow` handled and answered 1 to 3 seconds late (`random` picks the delay).
 */
export function createChaosAnswers(
  listener: (req: NodeRequestLike, res: NodeResponseLike) => void,
  random: () => number,
  log: (line: string) => void,
): ChaosAnswers {
  /** Late answers of chaos, by timer: a close sends them at once. */
  const slowAnswers = new Map<ReturnType<typeof setTimeout>, () => void>();
  return {
    fail(req, res, failure) {
      const path = shown((req.url ?? "/").split("?")[0]!);
      log(`${time()} chaos ${failure}: ${req.method} ${path}`);
      if (failure === "503" || failure === "429") {
        req.resume();
        const status = Number(failure);
        res.writeHead(status, {
          "content-type": JSON_API_MEDIA_TYPE,
          ...(status === 429 ? { "retry-after": "1" } : {}),
        });
        res.end(
          status === 429
            ? errorBody(429, "ERR_RATE_LIMITED", "Too many requests", "chaos: retry after 1 second")
            : errorBody(503, "ERR_UNAVAILABLE", "Service unavailable", "chaos: the service is unavailable"),
        );
        return;
      }
      if (failure === "drop") {
        // Handled (the event may be created), but the answer is lost with the connection.
        listener(req, {
          writeHead: () => {},
          end: () => {
            req.socket.destroy();
          },
        });
        return;
      }
      const delay = 1000 + Math.floor(random() * 2000);
      let head: [number, string[]] = [200, []];
      listener(req, {
        writeHead: (status, headers) => {
          head = [status, headers];
        },
        end: (body) => {
          const send = () => {
            slowAnswers.delete(timer);
            res.writeHead(head[0], head[1]);
            res.end(body);
          };
          const timer = setTimeout(send, delay);
          slowAnswers.set(timer, send);
        },
      });
    },
    sendLateAnswers() {
      for (const [timer, send] of slowAnswers) {
        clearTimeout(timer);
        send();
      }
    },
  };
}
