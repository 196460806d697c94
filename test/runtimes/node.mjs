// Runs the conformance suite in this Node process and prints the results as JSON.
import { runConformance } from "./conformance.js";
import { start } from "./service.js";

const service = await start();
try {
  console.log(JSON.stringify(await runConformance({ serviceUrl: service.url })));
} finally {
  await service.close();
}
