import type { EventType } from "../events/eventTypes.js";
import { IDEMPOTENCY_KEY_META } from "../idempotency/idempotencyKey.js";
import { quote } from "../internal/describe.js";
import type { EventAttributeNames } from "../jsonapi/eventAttributeNames.js";
import { safeParseEventResource } from "../jsonapi/parseEventDocument.js";
import type { CreatedEvent } from "./CreatedEvent.js";
import { EventsResponseError, IdempotencyEchoError } from "./errors.js";
import { redactJson } from "./redactSecrets.js";

/**
 * The created event of a 2xx body; when the body is not one, the error is built from the parsed
 * body with the authorization values blotted out of every string and member name, so that a
 * service echoing them, escaped or not, cannot put them into the error.
 */
export function readCreatedEvent<T extends EventType>(
  names: EventAttributeNames,
  text: string,
  secrets: readonly string[],
  status: number,
  type: T,
  key: string,
): CreatedEvent<T> {
  const parse = (): unknown => (text === "" ? undefined : JSON.parse(text));
  let parsed: unknown;
  try {
    parsed = parse();
  } catch {
    throw new EventsResponseError(status, "the response body is not JSON", [], key);
  }
  try {
    return checkCreated(parsed, status, type, key, names);
  } catch (error) {
    // The body is parsed again: the resource that failed the checks may be shared with the error.
    const clean = redactJson(parse(), secrets);
    if (!clean.changed) throw error;
    checkCreated(clean.value, status, type, key, names);
    throw new EventsResponseError(
      status,
      "the response is not the created event resource (details withheld: it contains the authorization value)",
      [],
      key,
    );
  }
}

function checkCreated<T extends EventType>(
  body: unknown,
  status: number,
  type: T,
  key: string,
  names: EventAttributeNames,
): CreatedEvent<T> {
  const result = safeParseEventResource(body, { attributeNames: names });
  if (!result.success) {
    throw new EventsResponseError(
      status,
      `the response is not an event resource: ${result.error.message}`,
      result.error.issues,
      key,
    );
  }
  const resource = result.data.data;
  const echoed = (resource.meta as Record<string, unknown> | undefined)?.[IDEMPOTENCY_KEY_META];
  if (echoed !== key) throw new IdempotencyEchoError(echoed, key);
  const sentType = resource.attributes[names.eventType];
  if (sentType !== type) {
    throw new EventsResponseError(
      status,
      `the response is an event of type ${typeof sentType === "string" ? quote(sentType) : "(none)"}, not ${type}`,
      [],
      key,
    );
  }
  return resource as CreatedEvent<T>;
}
