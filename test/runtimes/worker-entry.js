// The suite as a Cloudflare module worker (workerd), bundled by esbuild.
import { runConformance } from "./conformance.js";

export default {
  async fetch(request) {
    const serviceUrl = new URL(request.url).searchParams.get("service") ?? undefined;
    return Response.json(await runConformance({ serviceUrl }));
  },
};
