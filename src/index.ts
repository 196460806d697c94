export * from "./events/index.js";
export * from "./webhooks/index.js";
