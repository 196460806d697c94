/**
 * tRPC v11 with Standard Schema objects as procedure inputs: a valid input reaches the resolver
 * typed as the content, an invalid one is answered with tRPC's `BAD_REQUEST` before the resolver
 * runs, its cause carrying the library's issues, which an error formatter hands to the client
 * typed. Called through `createCaller` and through the fetch adapter, as a server runs it.
 * Imported from the built package.
 */
import { type inferRouterError, initTRPC, StandardSchemaV1Error, TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { EventContent, EventValidationIssue, MessagingEvent } from "messaging-events/events";
import { eventSchema, messageTextContent } from "messaging-events/standard";
import { describe, expect, expectTypeOf, it } from "vitest";

const t = initTRPC.create({
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    data: {
      ...shape.data,
      // The library's issues, typed, for the client to put on its fields.
      issues:
        error.cause instanceof StandardSchemaV1Error
          ? (error.cause.issues as readonly EventValidationIssue[])
          : null,
    },
  }),
});

const resolved: unknown[] = [];
const router = t.router({
  sendText: t.procedure.input(messageTextContent).mutation(({ input }) => {
    expectTypeOf(input).toEqualTypeOf<EventContent<"s.message.text">>();
    resolved.push(input);
    return { length: input.body.length };
  }),
  sendEvent: t.procedure.input(eventSchema).mutation(({ input }) => input.type),
});
const caller = t.createCallerFactory(router)({});

describe("tRPC v11 with a Standard Schema object as input", () => {
  it("runs the procedure with the validated content", async () => {
    await expect(caller.sendText({ body: "Hello" })).resolves.toEqual({ length: 5 });
    await expect(caller.sendEvent({ type: "s.room.pin", content: { value: true } })).resolves.toBe(
      "s.room.pin",
    );
  });

  it("answers BAD_REQUEST with the library's issues, without running the procedure", async () => {
    resolved.length = 0;
    const error = await caller
      .sendText({ body: "Hello", format: "x".repeat(101) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect((error as TRPCError).cause).toBeInstanceOf(StandardSchemaV1Error);
    expect(((error as TRPCError).cause as StandardSchemaV1Error).issues).toEqual([
      expect.objectContaining({
        code: "too_long",
        path: ["format"],
        pointer: "/format",
        message: "format must be at most 100 characters long, not 101",
      }),
    ]);
    expect(resolved).toEqual([]);
    const wrong = await caller
      .sendEvent({ type: "s.timer", content: { status: "RUNNING" } } as unknown as MessagingEvent)
      .catch((e: TRPCError) => e);
    expect((wrong as TRPCError).code).toBe("BAD_REQUEST");
    expect(((wrong as TRPCError).cause as StandardSchemaV1Error).issues[0]?.path).toEqual([
      "content",
      "expires",
    ]);
  });

  it("answers 400 over HTTP with the typed error shape", async () => {
    expectTypeOf<inferRouterError<typeof router>["data"]["issues"]>().toEqualTypeOf<
      readonly EventValidationIssue[] | null
    >();
    const post = (body: unknown) =>
      fetchRequestHandler({
        endpoint: "/trpc",
        router,
        createContext: () => ({}),
        req: new Request("http://127.0.0.1/trpc/sendText", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      });
    const ok = await post({ body: "Hi" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ result: { data: { length: 2 } } });
    const bad = await post({ body: 7 });
    expect(bad.status).toBe(400);
    const { error } = (await bad.json()) as { error: inferRouterError<typeof router> };
    expect(error.data.code).toBe("BAD_REQUEST");
    expect(error.data.issues).toEqual([
      expect.objectContaining({
        code: "invalid_type",
        path: ["body"],
        message: "body must be a string, not a number",
      }),
    ]);
  });
});
