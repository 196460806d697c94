// The JSON Schema files through the package exports (import attributes need module nodenext or esnext).
import contentSchema from "messaging-events/json-schema/s.message.text.json" with { type: "json" };

export const title: string = contentSchema.title;
