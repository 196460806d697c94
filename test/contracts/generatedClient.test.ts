/**
 * A client generated from the OpenAPI document by a real generator creates events on the emulator:
 * openapi-typescript reads the document from the emulator's `/openapi.json` (following its `$ref`s
 * to `/json-schema/…` over HTTP), the types go into a strict TypeScript project under .tmp/ with a
 * small program on openapi-fetch, `tsc` compiles it (its `@ts-expect-error` lines prove the types are
 * precise, not `unknown`), and the program runs against the emulator on 127.0.0.1: 201, a replay of
 * the same key, and a 422 with the library's error document, each read through the generated types.
 *
 * Part of `npm run test:integration` (a socket and a child process).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../src/cli/emulator/startEmulator.js";
import { safeParseEventResource } from "../../src/jsonapi/index.js";
import { libraryAccepts } from "./contractInputs.js";

const project = fileURLToPath(new URL("../../.tmp/openapi-client/", import.meta.url));

/** The program a user writes on the generated types: one create, its replay, and an invalid one. */
const program = `import createClient from "openapi-fetch";
import type { paths } from "./api.js";

type Document = paths["/events"]["post"]["requestBody"]["content"]["application/vnd.api+json"];

// The generated types know the 32 event types and the shape of each content.
// @ts-expect-error "s.message.nope" is no event type.
const unknownType: Document = { data: { type: "events", attributes: { eventType: "s.message.nope", content: {} } } };
// @ts-expect-error the body of a text message is a string.
const wrongContent: Document = { data: { type: "events", attributes: { eventType: "s.message.text", content: { body: 42 } } } };
void unknownType;
void wrongContent;

export interface Outcome {
  readonly status: number;
  readonly id: string | undefined;
  readonly replayed: string | null;
  readonly body: unknown;
  readonly codes: readonly string[];
}

export async function createEvents(baseUrl: string): Promise<Outcome[]> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: "Bearer generated-client" } });
  const headers = { "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" };
  const create = (document: Document, key?: string) =>
    client.POST("/events", {
      body: document,
      headers,
      params: { header: key === undefined ? {} : { "Service-Idempotency-Key": key } },
    });
  const key = "generated-client-7f9c2ba4";
  const text: Document = {
    data: {
      type: "events",
      attributes: { eventType: "s.message.text", content: { body: "Hello from a generated client", format: "text/plain" } },
      relationships: { room: { data: { type: "rooms", id: "room-9c2e71" } } },
      meta: { "idempotency-key": key },
    },
  };
  // Valid for the types (maxLength is not a type), refused by the service: format is at most 100 characters.
  const tooLong: Document = {
    data: { type: "events", attributes: { eventType: "s.message.text", content: { body: "Hi", format: "x".repeat(101) } } },
  };
  const outcomes: Outcome[] = [];
  for (const [document, idempotencyKey] of [[text, key], [text, key], [tooLong, undefined]] as const) {
    const { data, error, response } = await create(document, idempotencyKey);
    // The created resource, typed: its id is a string, its attributes narrow on eventType.
    const id: string | undefined = data?.data.id;
    if (data !== undefined && data.data.attributes.eventType === "s.message.text") {
      const body: string = data.data.attributes.content.body;
      void body;
    }
    // The error document, typed: every error has a string code.
    const codes: string[] = error === undefined ? [] : error.errors.map((item) => item.code);
    outcomes.push({
      status: response.status,
      id,
      replayed: response.headers.get("idempotent-replayed"),
      body: data ?? error,
      codes,
    });
  }
  return outcomes;
}
`;

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    webhookUrls: [],
    secret: [],
    authorization: undefined,
    chaosRate: 0,
    random: Math.random,
    webhookRetryDelaysMs: undefined,
    log: () => {},
  });
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
});

afterAll(async () => {
  await emulator?.close();
});

describe("a client generated from the OpenAPI document", () => {
  it("is generated from the emulator's /openapi.json, compiles strictly, and creates, replays and is refused as typed", async () => {
    // openapi-typescript follows the document's references to the emulator's /json-schema/ files.
    const ast = await openapiTS(new URL(`${emulator.url}/openapi.json`));
    writeFileSync(`${project}api.d.ts`, astToString(ast));
    writeFileSync(`${project}client.ts`, program);
    writeFileSync(
      `${project}tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          types: [],
        },
        files: ["client.ts", "api.d.ts"],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    try {
      execFileSync(process.execPath, [tsc, "-p", `${project}tsconfig.json`], { encoding: "utf8" });
    } catch (error) {
      throw new Error(`the generated client does not compile:\n${(error as { stdout?: string }).stdout}`);
    }

    const { createEvents } = (await import(pathToFileURL(`${project}client.ts`).href)) as {
      createEvents(
        baseUrl: string,
      ): Promise<
        { status: number; id: string | undefined; replayed: string | null; body: unknown; codes: string[] }[]
      >;
    };
    const [created, replayed, refused] = await createEvents(emulator.url);
    expect(created?.status).toBe(201);
    expect(created?.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(safeParseEventResource(created?.body).success).toBe(true);
    expect(replayed).toMatchObject({ status: 201, id: created?.id, replayed: "true" });
    expect(replayed?.body).toEqual(created?.body);
    expect(refused).toMatchObject({ status: 422, id: undefined, codes: ["too_long"] });
    expect(libraryAccepts("error-document.json", refused?.body)).toBe(true);
  });
});
