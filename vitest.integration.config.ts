import { defineConfig } from "vitest/config";

/**
 * The suites over real sockets and child processes on 127.0.0.1 (`npm run test:integration`, run by
 * .ci/run): the command line run as a program, the server behind node:http, the dispatcher and the
 * client against loopback peers. `npm test` keeps the unit, conformance, property, type, bundle and
 * docs suites; the Redis suites are `npm run test:redis`.
 */
export const integrationSuites = [
  "test/cli/**/*.test.ts",
  "test/server/**/*.test.ts",
  "test/dispatch/**/*.test.ts",
  "test/client/**/*.test.ts",
  "test/webhooks/servers.test.ts",
  "test/webhooks/recipes.test.ts",
  "test/webhooks/receiverLoopback.test.ts",
  // The emulator's inspector in Debian's Chromium (playwright-core), and its routes over loopback.
  "test/inspector/**/*.test.ts",
  // Python's jsonschema on the shipped JSON Schema (python3-jsonschema, which .ci/run installs), and a
  // client generated from the OpenAPI document, compiled and run against the emulator.
  "test/contracts/python.test.ts",
  "test/contracts/generatedClient.test.ts",
  "test/opentelemetry/**/*.test.ts",
];

export default defineConfig({
  test: {
    include: integrationSuites,
    exclude: ["**/node_modules/**", "**/*.redis.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
