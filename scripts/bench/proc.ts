// Shared by the benchmarks: a Vigil server as its own process, and its CPU and memory read from /proc.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { SERVER_RUNTIME_ARGS } from "../server-runtime";

export const ROOT = resolve(import.meta.dir, "../..");
export const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

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
  /** The server's WARN and ERROR log lines (the first 50), for the report. */
  problems: string[];
  /** SIGTERM, and wait for the graceful stop (pending writes flushed). */
  stop(): Promise<void>;
}

/**
 * Servers still running, killed (by pid) if this process exits early (an error, Ctrl-C, SIGTERM: both signals end
 * it through process.exit, so every exit handler runs). Registered first, so the servers go before what they use.
 */
const live = new Set<Subprocess>();
process.on("exit", () => {
  for (const p of live) if (p.exitCode === null) p.kill("SIGKILL");
});
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) process.on(signal, () => process.exit(code));

/** A temp dir (under the system's), removed when this process exits unless `keep`; remove() removes it now. */
export function benchDir(prefix: string, keep = false) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => {
    if (!keep) rmSync(path, { recursive: true, force: true });
  };
  process.on("exit", remove);
  return {
    path,
    remove() {
      remove();
      process.off("exit", remove);
    },
  };
}

/** Starts `bun server/main.ts` (or `binary`) on a free port over `dataDir` and waits for its "listening" line. */
export async function startServer(dataDir: string, opts: { binary?: string; args?: string[]; runtimeArgs?: string[] } = {}): Promise<RunningServer> {
  // The flags the server ships with (the executable has them baked in), then runtimeArgs: more of Bun's own flags
  // (a CPU profile: --cpu-prof-md …), for `bun server/main.ts` only.
  const cmd = opts.binary ? [resolve(opts.binary)] : [process.execPath, ...SERVER_RUNTIME_ARGS, ...(opts.runtimeArgs ?? []), join(ROOT, "server/main.ts")];
  const proc = Bun.spawn([...cmd, "--port", "0", "--data-dir", dataDir, "--log-level", "info", ...(opts.args ?? [])], {
    cwd: dataDir,
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, VIGIL_JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123" },
  });
  live.add(proc);
  void proc.exited.then(() => live.delete(proc));
  const started = performance.now();
  let base = "";
  let log = "";
  let partial = "";
  const problems: string[] = [];
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  // Keep draining the log so the server never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const text = decoder.decode(value, { stream: true });
      log += text;
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (problems.length < 50 && /^\S+ (WARN|ERROR) /.test(line)) problems.push(line);
      const m = !base && log.match(/listening on (http:\/\/\S+)/);
      if (m) base = m[1];
      if (log.length > 100_000) log = log.slice(-10_000);
    }
  })();
  while (!base) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${log}`);
    if (performance.now() - started > 120_000) {
      proc.kill("SIGKILL");
      throw new Error(`server did not start: ${log.slice(-2000)}`);
    }
    await Bun.sleep(20);
  }
  return {
    proc,
    base,
    startupMs: Math.round(performance.now() - started),
    problems,
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
