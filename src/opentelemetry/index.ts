export { createOpenTelemetry } from "./createOpenTelemetry.js";
export type { OpenTelemetryInstrumentation, OpenTelemetryOptions } from "./OpenTelemetryOptions.js";
