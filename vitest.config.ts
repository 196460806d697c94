import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Suites that need a real redis-server run in `npm run test:redis`.
    exclude: ["**/node_modules/**", "**/*.redis.test.ts"],
    typecheck: {
      enabled: true,
      include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
