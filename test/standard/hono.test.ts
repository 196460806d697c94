/**
 * Hono with `@hono/standard-validator`: `sValidator("json", schema)` with a Standard Schema object
 * answers 400 with the library's issues for an invalid JSON body (Hono's default answer, and a
 * hook that answers as the library's servers do), and hands the handler the validated value,
 * typed, for a valid one. Requests go through `app.request`, the app's own Fetch handler (what
 * every Hono adapter serves; `npm test` opens no socket). Imported from the built package.
 */
import { sValidator } from "@hono/standard-validator";
import { Hono } from "hono";
import type { EventContent, EventValidationIssue, MessagingEvent } from "messaging-events/events";
import { eventSchema, messageTextContent } from "messaging-events/standard";
import { describe, expect, expectTypeOf, it } from "vitest";

const app = new Hono()
  .post("/messages", sValidator("json", messageTextContent), (c) => {
    const content = c.req.valid("json");
    expectTypeOf(content).toEqualTypeOf<EventContent<"s.message.text">>();
    return c.json({ received: content.body });
  })
  .post(
    "/events",
    sValidator("json", eventSchema, (result, c) => {
      if (!result.success) {
        // The library's issues as a JSON:API error document, as its own servers answer.
        const errors = (result.error as readonly EventValidationIssue[]).map((issue) => ({
          status: "422",
          code: issue.code,
          detail: issue.message,
          source: { pointer: issue.pointer },
        }));
        return c.json({ errors }, 422);
      }
    }),
    (c) => {
      const created: MessagingEvent = c.req.valid("json");
      return c.json({ type: created.type }, 201);
    },
  );

const post = (path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("Hono with sValidator and a Standard Schema object", () => {
  it("answers 200 with the validated body", async () => {
    const response = await post("/messages", { body: "Hello", format: "text/plain" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: "Hello" });
  });

  it("answers 400 with the library's issues for an invalid body", async () => {
    const response = await post("/messages", { body: "Hello", format: "x".repeat(104) });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { success: boolean; error: EventValidationIssue[] };
    expect(answer.success).toBe(false);
    expect(answer.error).toEqual([
      {
        code: "too_long",
        path: ["format"],
        pointer: "/format",
        message: "format must be at most 100 characters long, not 104",
        ...(answer.error[0]?.params === undefined ? {} : { params: answer.error[0].params }),
      },
    ]);
  });

  it("a hook answers as the library's servers do, pointers from the event", async () => {
    const invalid = await post("/events", { type: "s.message.text", content: { body: 42 } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      errors: [
        {
          status: "422",
          code: "invalid_type",
          detail: "content.body must be a string, not a number",
          source: { pointer: "/content/body" },
        },
      ],
    });
    const valid = await post("/events", { type: "s.room.close", content: {} });
    expect(valid.status).toBe(201);
    expect(await valid.json()).toEqual({ type: "s.room.close" });
  });
});
