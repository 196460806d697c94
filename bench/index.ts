/**
 * `npm run bench`: content validation throughput of the library against zod/mini and the usual
 * validators (Ajv on the library's own generated JSON Schema three ways, TypeBox, typia, arktype,
 * valibot), on valid and near-miss invalid mixes of five types and of every type, and whole events
 * (see `bench/content.ts`); then webhook verification, the server, the dispatcher and the command
 * line, the emulator inspector's first paint with 10,000 events, and the cost of the OpenTelemetry
 * instrumentation. Ratios compare contenders measured in the same run: above 1 is faster.
 */
import { printContentBench, runContentBench } from "./content.js";
import { dispatchCase, dispatchSummary, printDispatchCase } from "./dispatch.js";
import {
  hangingEndpointsCase,
  hangingEndpointsSummary,
  printHangingEndpointsCase,
} from "./hangingEndpoints.js";
import { printCase } from "./harness.js";
import { inspectorCase, inspectorSummary, printInspectorCase } from "./inspector.js";
import { printServerCase, serverCase, serverSummary } from "./server.js";
import { printTelemetryCase, telemetryCase, telemetrySummary } from "./telemetry.js";
import { forgedBodyCase, printForgedBodyCase, webhookCases, webhookSummary } from "./webhooks.js";

console.log(`messaging-events benchmark on Node ${process.versions.node}`);
printContentBench(await runContentBench());
const webhooks = await webhookCases();
for (const result of webhooks) printCase(result);
console.log(webhookSummary(webhooks[0]!));
printForgedBodyCase(await forgedBodyCase());
const server = await serverCase();
printServerCase(server);
console.log(serverSummary(server));
const dispatch = await dispatchCase();
printDispatchCase(dispatch);
console.log(dispatchSummary(dispatch));
const hanging = await hangingEndpointsCase();
printHangingEndpointsCase(hanging);
console.log(hangingEndpointsSummary(hanging));
// The command line's validate throughput and its memory on a 1 GiB stream (BENCH_CLI_BYTES to change).
await import("./cli.js");
// The emulator's inspector in Chromium with 10,000 events: time to first paint (skipped without Chromium).
const inspector = await inspectorCase();
printInspectorCase(inspector);
console.log(inspectorSummary(inspector));
// Last: it installs OpenTelemetry's context manager for the rest of the process.
const telemetry = await telemetryCase();
printTelemetryCase(telemetry);
console.log(telemetrySummary(telemetry));
