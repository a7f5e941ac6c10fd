// Shared by the agent's integration tests (agent/*.integration.test.ts): the compiled agent, a real server process,
// and waiting for what they do. Everything on 127.0.0.1.
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = resolve(import.meta.dir, "..");

/** Compiles agent/main.ts into one executable at `outfile` (a few seconds). */
export function buildAgent(outfile: string): void {
  const build = Bun.spawnSync([process.execPath, "build", "--compile", join(ROOT, "agent/main.ts"), "--outfile", outfile], { stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
}

/** A port free on 127.0.0.1 a moment ago. */
export function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** `bun server/main.ts` on `port` over `dataDir`, once it answers; the caller stops it (it is killed if it never answers). */
export async function startServer(port: number, dataDir: string): Promise<Subprocess> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "server/main.ts"), "--port", String(port), "--data-dir", dataDir], {
    stdout: "ignore",
    stderr: "inherit",
    env: { ...process.env, VIGIL_LOG_LEVEL: "warn" },
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/config`)).ok) return proc;
    } catch {}
    await Bun.sleep(100);
  }
  proc.kill("SIGKILL");
  throw new Error("server did not start");
}

/** Polls `check` until it gives something truthy (returned), or fails after `ms`. */
type Maybe<T> = T | undefined | null | false;
export async function waitFor<T>(check: () => Maybe<T> | Promise<Maybe<T>>, ms: number, what = "a condition"): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = await check();
    if (value) return value;
    await Bun.sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A JSON call to the server at `base`. */
export const client = (base: string) => async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as any;
};
