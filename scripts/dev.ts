// npm run dev: the server restarts on server changes (bun --watch) and the UI rebuilds on ui/ changes.
// Reload the browser page to see a UI change.
import { watch } from "node:fs";
import { buildUi } from "./build-ui";
import { buildStaleAgentsInBackground } from "./freshness";

await buildUi();
buildStaleAgentsInBackground();
let timer: Timer | undefined;
watch("ui", { recursive: true }, () => {
  clearTimeout(timer);
  timer = setTimeout(() => buildUi().catch((e) => console.error("UI build failed:", e)), 100);
});

const server = Bun.spawn([process.execPath, "--watch", "server/main.ts", ...process.argv.slice(2)], {
  stdout: "inherit",
  stderr: "inherit",
  env: { NODE_ENV: "development", ...process.env, VIGIL_UI_LIVE: "1" },
});
const stop = () => {
  server.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
await server.exited;
