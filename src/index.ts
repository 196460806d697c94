export * from "./events/index.js";
