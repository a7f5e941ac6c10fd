// The runtime settings the server runs with that Bun reads from the environment only as the process starts (its
// allocator, mimalloc, and JavaScriptCore). When they are missing, main.ts (through server/reexec.ts, its first import)
// has the process replace itself (execve: same PID, same arguments and open files) with one that has them, before
// anything else is loaded or opened.
//
// MIMALLOC_PURGE_HOLES_MIN_INTERVAL=1000: how often (ms) mimalloc's background thread ("mi-scavenger") looks for free
// holes in its pages to hand back to the system; Bun's default is 100 ms. That thread's work grows with the memory the
// process holds, not with what it frees: at 50 checks/s it was a third of the server's CPU (20 of 60 CPU ticks a
// minute at 3 000 monitors, 100 MB RSS). Once a second, plain checks cost 0.16–0.17 ms instead of 0.22 at the same
// RSS. Freed pages still go back within a second.
//
// BUN_JSC_useConcurrentGC=0: JavaScriptCore's full collections stop the program instead of marking beside it. At
// 100 000 monitors a concurrent full collection marks ~120 MB for seconds while checks go on allocating, and RSS rose
// by 40–90 MB meanwhile (peaks of 286–349 MB against ends of 240–250). Stopping for it caps the peak (277 MB) at the
// same CPU, for a pause of tens of milliseconds once every minute or so (lateness max 49 ms at 100 000; eden
// collections were pauses already). docs/benchmarks.md, "Per-check cost against the runtime's floor".
//
// Bun exits at start on a JavaScriptCore option it does not know: server/runtime-env.test.ts starts the server from
// source and the executable with these, so a Bun upgrade that drops one fails the tests, not an operator's start.
// An operator's own value wins (MIMALLOC_PURGE_HOLES_MIN_INTERVAL=100 and BUN_JSC_useConcurrentGC=1 are Bun's
// defaults), and VIGIL_NO_REEXEC=1 turns the re-exec off. Only on Linux, where /proc gives the exact command line.
import { readFileSync } from "node:fs";

export const RUNTIME_ENV: Readonly<Record<string, string>> = {
  MIMALLOC_PURGE_HOLES_MIN_INTERVAL: "1000",
  BUN_JSC_useConcurrentGC: "0",
};

/** The settings the environment lacks (an operator's own values stay). */
export function missingRuntimeEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(RUNTIME_ENV).filter(([name]) => env[name] === undefined));
}

/** The settings as the startup log shows them. */
export const runtimeEnvSettings = (env: Record<string, string | undefined> = process.env) =>
  Object.keys(RUNTIME_ENV)
    .map((name) => `${name}=${env[name] ?? "(Bun's default)"}`)
    .join(" ");

/** Replaces the process with one that has the missing settings (returns only when nothing is missing or it cannot). */
export function reexecWithRuntimeEnv() {
  if (process.platform !== "linux" || process.env.VIGIL_NO_REEXEC === "1") return;
  const missing = missingRuntimeEnv(process.env);
  if (Object.keys(missing).length === 0) return;
  let argv: string[];
  try {
    argv = readFileSync("/proc/self/cmdline", "utf8").split("\0");
  } catch {
    return;
  }
  if (argv.at(-1) === "") argv.pop();
  if (argv.length === 0) return;
  try {
    process.execve!("/proc/self/exe", argv, { ...process.env, ...missing });
  } catch {
    // Not replaced (a sandbox refusing execve): the server runs on Bun's defaults, which cost more CPU and memory.
  }
}
