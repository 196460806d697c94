export * from "./client/index.js";
export * from "./events/index.js";
export * from "./idempotency/index.js";
export * from "./jsonapi/index.js";
export * from "./webhooks/index.js";
