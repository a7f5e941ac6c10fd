// npm start: build the UI when it is missing or out of date, then run the server from source.
// Flags pass through: `npm start -- --port 8080 --data-dir /tmp/vigil`.
import { buildUi } from "./build-ui";
import { uiIsStale } from "./ui-freshness";

if (uiIsStale()) await buildUi();
await import("../server/main.ts");
