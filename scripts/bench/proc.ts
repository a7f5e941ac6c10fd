// Shared by the benchmarks: a Vigil server as its own process, and its CPU and memory read from /proc.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = resolve(import.meta.dir, "../..");
const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

/** CPU seconds (user + system) a process has used. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

export function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}

export const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export interface RunningServer {
  proc: Subprocess<"ignore", "pipe", "inherit">;
  base: string;
  startupMs: number;
  /** SIGTERM, and wait for the graceful stop (pending writes flushed). */
  stop(): Promise<void>;
}

/** Starts `bun server/main.ts` (or `binary`) on a free port over `dataDir` and waits for its "listening" line. */
export async function startServer(dataDir: string, opts: { binary?: string; args?: string[] } = {}): Promise<RunningServer> {
  const cmd = opts.binary ? [resolve(opts.binary)] : [process.execPath, join(ROOT, "server/main.ts")];
  const proc = Bun.spawn([...cmd, "--port", "0", "--data-dir", dataDir, "--log-level", "info", ...(opts.args ?? [])], {
    cwd: dataDir,
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, VIGIL_JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123" },
  });
  const started = performance.now();
  let base = "";
  let log = "";
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  // Keep draining the log so the server never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      log += decoder.decode(value);
      const m = !base && log.match(/listening on (http:\/\/\S+)/);
      if (m) base = m[1];
      if (log.length > 100_000) log = log.slice(-10_000);
    }
  })();
  while (!base) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${log}`);
    if (performance.now() - started > 120_000) throw new Error("server did not start");
    await Bun.sleep(20);
  }
  return {
    proc,
    base,
    startupMs: Math.round(performance.now() - started),
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      await drained.catch(() => {});
    },
  };
}

/** A JSON API caller for one server. */
export function apiClient(base: string) {
  return async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };
}
