// The same package from CommonJS TypeScript.
import events = require("messaging-events/events");
import webhooks = require("messaging-events/webhooks");
import root = require("messaging-events");

const result = events.safeParseEventContent("s.presence", { status: "AWAY" });
const status: "OFFLINE" | "INVISIBLE" | "INACTIVE" | "AWAY" | "ONLINE" | undefined = result.success
  ? result.data.status
  : undefined;
const done: Promise<unknown> = webhooks
  .signWebhook({ payload: "{}", secret: "s" })
  .then((signed) => root.verifyWebhook({ ...signed, secret: "s" }));
console.log(status, done);
