// npm start: build the UI when it is missing or out of date, then run the server from source.
// Flags pass through: `npm start -- --port 8080 --data-dir /tmp/vigil`.
import { buildAgents, LINUX_TARGETS } from "./build-agents";
import { buildUi } from "./build-ui";
import { agentsAreStale, uiIsStale } from "./freshness";

if (uiIsStale()) await buildUi();
await import("../server/main.ts");
// The install guide on /agents/create downloads the agent from this server, so build the Linux agents too when they
// are missing or stale — after the server is up, since it takes a few seconds; downloads answer 404 until then.
if (agentsAreStale()) {
  console.log("Building the Linux agent binaries for /agents/create in the background…");
  buildAgents(LINUX_TARGETS).catch((e) => console.error(`Agent build failed (run \`npm run build\` to retry): ${e.message}`));
}
