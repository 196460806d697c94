// CommonJS: require every subpath of the built package and run the same content table and a webhook round trip.
const root = require("messaging-events");
const subpaths = ["events", "webhooks", "jsonapi", "idempotency", "client"].map((name) =>
  require(`messaging-events/${name}`),
);
const cases = require("./cases.json");

async function main() {
  const results = {};
  try {
    for (const sub of subpaths)
      for (const [key, value] of Object.entries(sub))
        if (root[key] !== value) throw new Error(`${key} differs`);
    results["import every subpath"] = "pass";
  } catch (error) {
    results["import every subpath"] = `fail: ${error.message}`;
  }
  try {
    for (const row of cases) {
      if (root.safeParseEventContent(row.type, row.content).success !== row.valid)
        throw new Error(`${row.type} ${row.name}`);
    }
    results["content verdicts"] = "pass";
  } catch (error) {
    results["content verdicts"] = `fail: ${error.message}`;
  }
  try {
    const signed = await root.signWebhook({
      payload: { type: "s.room.close", version: 2, content: {} },
      secret: "s",
    });
    const payload = await root.verifyWebhook({ ...signed, secret: "s" });
    if (payload.type !== "s.room.close") throw new Error("payload");
    const tampered = await root.safeVerifyWebhook({ ...signed, body: `${signed.body} `, secret: "s" });
    if (tampered.error.code !== "ERR_WEBHOOK_SIGNATURE_MISMATCH") throw new Error("tamper accepted");
    results["webhook sign and verify"] = "pass";
  } catch (error) {
    results["webhook sign and verify"] = `fail: ${error.message}`;
  }
  console.log(JSON.stringify(results));
}
main();
