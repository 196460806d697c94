// The JSON Schema files, the OpenAPI and AsyncAPI documents and the examples through the package
// exports (import attributes need module nodenext or esnext).
import asyncapi from "messaging-events/asyncapi.json" with { type: "json" };
import timer from "messaging-events/examples/events/s.timer.json" with { type: "json" };
import contentSchema from "messaging-events/json-schema/s.message.text.json" with { type: "json" };
import payloadSchema from "messaging-events/json-schema/webhook-payload.json" with { type: "json" };
import openapi from "messaging-events/openapi.json" with { type: "json" };

export const title: string = contentSchema.title;
export const payloadTitle: string = payloadSchema.title;
export const versions: string = `${openapi.openapi} ${asyncapi.asyncapi}`;
export const timerType: string = timer.type;
