/** Helpers shared by the server suites: documents, requests and a create function that counts. */
import { createEventDocument } from "../../src/jsonapi/createEventDocument.js";
import type { CreateEventRequest, CreateEventResult } from "../../src/server/index.js";

export const MEDIA_TYPE = "application/vnd.api+json";
export const TOKEN = "Bearer test-token";

/** A valid request document (built by the library, so it follows the attribute names it uses). */
export function documentFor(body: string, key?: string): Record<string, unknown> {
  return createEventDocument({
    type: "s.message.text",
    content: { body },
    ...(key === undefined ? {} : { idempotencyKey: key }),
  }) as unknown as Record<string, unknown>;
}

/** Principals by token: two tenants, to prove that keys are scoped per principal. */
export function authorize(request: Request): string | null {
  const value = request.headers.get("authorization");
  if (value === TOKEN) return "tenant-a";
  if (value === "Bearer other-tenant") return "tenant-b";
  return null;
}

/** Headers of a well-formed create request. */
export function createHeaders(key?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: TOKEN,
    "content-type": MEDIA_TYPE,
    accept: MEDIA_TYPE,
    ...(key === undefined ? {} : { "service-idempotency-key": key }),
    ...extra,
  };
}

/** A create function that issues ULID-shaped ids and records every call. */
export function countingCreate(delayMs = 0) {
  const calls: CreateEventRequest[] = [];
  let counter = 0;
  const create = async (request: CreateEventRequest): Promise<CreateEventResult> => {
    calls.push(request);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { id: `01JD8X${String(++counter).padStart(20, "0")}` };
  };
  return { calls, create };
}

/** Everything of a response that a replay must repeat: status, headers (minus the replay marker), body. */
export async function snapshot(response: Response): Promise<string> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== "idempotent-replayed" && name !== "date" && name !== "connection" && name !== "keep-alive")
      headers.push(`${name}: ${value}`);
  });
  return `${response.status}\n${headers.join("\n")}\n\n${await response.text()}`;
}
