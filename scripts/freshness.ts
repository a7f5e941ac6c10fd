// Is a build output older than its sources? npm start / npm run dev rebuild only what changed.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildAgents, LINUX_TARGETS } from "./build-agents";

function newestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const rel of readdirSync(path, { recursive: true }) as string[]) {
    const f = statSync(join(path, rel));
    if (f.isFile() && f.mtimeMs > newest) newest = f.mtimeMs;
  }
  return newest;
}

function isStale(output: string, sources: string[]): boolean {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((src) => newestMtime(src) > built);
}

/** True when dist/ui is missing or older than anything under ui/. */
export const uiIsStale = () => isStale("dist/ui/index.html", ["ui"]);

/** True when a Linux agent binary is missing or older than the agent's sources (agent/ and what it imports). */
const agentsAreStale = () =>
  LINUX_TARGETS.some((target) =>
    isStale(`dist/agents/vigil-agent-${target}.sha256`, ["agent", "server/agents/protocol.ts", "server/agents/limits.ts", "server/version.ts"]),
  );

/**
 * The install guide on /agents/create downloads the agent from this server, so npm start and npm run dev build the
 * Linux agents too when they are missing or stale — in the background, as it takes a few seconds; downloads answer
 * 404 until then.
 */
export function buildStaleAgentsInBackground(): void {
  if (!agentsAreStale()) return;
  console.log("Building the Linux agent binaries for /agents/create in the background…");
  buildAgents(LINUX_TARGETS).catch((e) => console.error(`Agent build failed (run \`npm run build\` to retry): ${e.message}`));
}
