import { describeValue, withArticle } from "../internal/describe.js";
import { EventsAuthorizationError } from "./EventsAuthorizationError.js";
import { isSendableHeaderValue, SENDABLE_HEADER_VALUE } from "./sendableHeaderValue.js";

/** The `authorization` option: the header value, or a function giving it, called once per attempt. */
export type AuthorizationOption = string | (() => string | Promise<string>);

/** The promise's outcome, or the signal's reason as soon as it aborts; the promise is left to settle. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The `Authorization` value for one attempt: the string as it is (checked when the client was
 * created), or what the function gives now, so that a token that refreshes is read afresh each
 * time. Throws `EventsAuthorizationError` when the function throws or gives anything but a
 * sendable header value, without showing it; rejects with the signal's reason when it aborts
 * first.
 *
 * @param authorization - The option, as checked by `normalizeClientOptions`.
 * @param attempts - How many requests were sent before this one.
 * @param idempotencyKey - The key of the request, for the error.
 * @param signal - The caller's signal.
 */
export async function readAuthorization(
  authorization: AuthorizationOption,
  attempts: number,
  idempotencyKey: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (typeof authorization === "string") return authorization;
  const unsent = `attempt ${attempts + 1} was not sent`;
  let value: unknown;
  try {
    value = await untilAborted(
      Promise.resolve().then(() => authorization()),
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new EventsAuthorizationError(
      `the authorization function threw (its error is the cause); ${unsent}`,
      attempts,
      idempotencyKey,
      { cause: error },
    );
  }
  if (typeof value !== "string") {
    throw new EventsAuthorizationError(
      `the authorization function must give the Authorization header value, a string (or a promise of one), not ${withArticle(describeValue(value))}; ${unsent}`,
      attempts,
      idempotencyKey,
    );
  }
  if (!isSendableHeaderValue(value)) {
    throw new EventsAuthorizationError(
      `the authorization function gave a value that cannot be sent as a header as it is: ${SENDABLE_HEADER_VALUE} (the value is not shown); ${unsent}`,
      attempts,
      idempotencyKey,
    );
  }
  return value;
}
