import { defineConfig } from "vitest/config";

// The packaging suites that pack the tarball and compile consumer projects against it (`npm run
// test:package`, run by .ci/run beside publint and arethetypeswrong): slow by nature, so kept out of
// `npm test`.
export default defineConfig({
  test: {
    include: ["test/package/consumer.test.ts", "test/package/peerRanges.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
