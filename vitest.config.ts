import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Suites that need a real redis-server run in `npm run test:redis`; the consumer projects
    // compiled against the packed tarball in `npm run test:package`.
    exclude: ["**/node_modules/**", "**/*.redis.test.ts", "test/package/consumer.test.ts"],
    typecheck: {
      enabled: true,
      include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
