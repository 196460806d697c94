// The suite in Vercel's edge-runtime, bundled as a classic script: the result lands on globalThis.
import { runConformance } from "./conformance.js";

globalThis.__result = runConformance({ serviceUrl: globalThis.__serviceUrl }).then((results) =>
  JSON.stringify(results),
);
