import { defineConfig, type Options } from "tsup";

// One entry per public subpath; each mirrors a folder of src/.
const entry = {
  index: "src/index.ts",
  "events/index": "src/events/index.ts",
  "webhooks/index": "src/webhooks/index.ts",
  "jsonapi/index": "src/jsonapi/index.ts",
  "idempotency/index": "src/idempotency/index.ts",
  "client/index": "src/client/index.ts",
  "server/index": "src/server/index.ts",
  "server/redis/index": "src/server/redis/index.ts",
  "dispatch/index": "src/dispatch/index.ts",
  "dispatch/bullmq/index": "src/dispatch/bullmq/index.ts",
  "opentelemetry/index": "src/opentelemetry/index.ts",
  "standard/index": "src/standard/index.ts",
};

const common: Options = {
  target: "es2022",
  platform: "neutral",
  outDir: "dist",
  // Peer dependencies: the user's copies, never bundled.
  external: ["zod", "bullmq", "redis", "@opentelemetry/api"],
  sourcemap: false,
};

// Type declarations are not made here: scripts/build-types.mjs writes them in one TypeScript pass.
export default defineConfig([
  // ESM keeps one file per source module, so bundlers drop whole unused modules thanks to
  // "sideEffects": false (esbuild, for one, does not carry Zod's pure annotations across modules).
  {
    ...common,
    // The inspector's page is bundled for the browser by scripts/build-inspector.ts, not here.
    entry: ["src/**/*.ts", "!src/**/*.test.ts", "!src/**/*.test-d.ts", "!src/cli/emulator/inspector/page/**"],
    format: "esm",
    bundle: false,
    clean: true,
  },
  // CommonJS is bundled per subpath, with shared code in chunks so that every subpath hands out
  // the same classes and functions (instanceof works across "messaging-events" and its subpaths).
  {
    ...common,
    entry,
    format: "cjs",
    bundle: true,
    splitting: true,
  },
]);
