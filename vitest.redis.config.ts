import { defineConfig } from "vitest/config";

// The suites that need a real redis-server (`npm run test:redis`); `npm test` leaves them out so that it
// passes on a fresh machine without Redis.
export default defineConfig({
  test: {
    include: ["src/**/*.redis.test.ts", "test/**/*.redis.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
