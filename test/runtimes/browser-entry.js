// The suite in a browser page, bundled by esbuild.
import { runConformance } from "./conformance.js";

window.resultPromise = runConformance({
  serviceUrl: new URL(location.href).searchParams.get("service") ?? undefined,
  emulatorUrl: new URL(location.href).searchParams.get("emulator") ?? undefined,
});
