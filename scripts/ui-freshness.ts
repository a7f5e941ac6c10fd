import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newestMtime(dir: string): number {
  let newest = 0;
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const s = statSync(join(dir, rel));
    if (s.isFile() && s.mtimeMs > newest) newest = s.mtimeMs;
  }
  return newest;
}

/** True when dist/ui is missing or older than anything under ui/. */
export function uiIsStale(): boolean {
  const built = "dist/ui/index.html";
  if (!existsSync(built)) return true;
  return newestMtime("ui") > statSync(built).mtimeMs;
}
