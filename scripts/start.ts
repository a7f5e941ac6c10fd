// npm start: build the UI when it is missing or out of date, run the server from source, then build the Linux agents
// if they are missing or stale.
// Flags pass through: `npm start -- --port 8080 --data-dir /tmp/vigil`.
import { buildUi } from "./build-ui";
import { buildStaleAgentsInBackground, uiIsStale } from "./freshness";

if (uiIsStale()) await buildUi();
await import("../server/main.ts");
buildStaleAgentsInBackground(); // after the server is up
