import { defineConfig } from "vitest/config";
import { integrationSuites } from "./vitest.integration.config.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Suites that need a real redis-server run in `npm run test:redis`; those over sockets and
    // child processes in `npm run test:integration`; the consumer projects compiled against the
    // packed tarball in `npm run test:package`. One child process stays here: the check that
    // validation never builds code from strings (test/properties/noCodeGeneration.test.ts, 1 to 2 s),
    // which guards the default path.
    exclude: [
      "**/node_modules/**",
      "**/*.redis.test.ts",
      "test/package/consumer.test.ts",
      "test/package/peerRanges.test.ts",
      ...integrationSuites,
    ],
    typecheck: {
      enabled: true,
      include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files share their workers' module graph (they hold no state of their own between files:
    // caches are keyed by secret, limits are restored after each call), which halves the time spent
    // importing; spies are undone after each test, so none leaks into the next file.
    pool: "threads",
    isolate: false,
    restoreMocks: true,
  },
});
