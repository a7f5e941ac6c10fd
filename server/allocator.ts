// Imported first by main.ts: Bun's allocator settings for the server, which mimalloc reads from the environment once,
// as the process starts. When they are missing, the process replaces itself (execve: same PID, same arguments and
// open files) with one that has them, before anything else is loaded or opened.
//
// MIMALLOC_PURGE_HOLES_MIN_INTERVAL: how often (ms) mimalloc's background thread ("mi-scavenger") looks for free
// holes in its pages to hand back to the system; Bun's default is 100 ms. That thread's work grows with the memory the
// process holds, not with what it frees, so at 50 checks/s it cost Vigil a third of its CPU per check (20 of 60 CPU
// ticks a minute at 3 000 monitors, 100 MB RSS). Once a second, the same run cost 0.16–0.17 ms per check instead of
// 0.22, RSS the same (README, "Per-check cost against the runtime's floor"). Freed pages still go back within a second.
//
// An operator's own value wins (set the variable to keep Bun's default: MIMALLOC_PURGE_HOLES_MIN_INTERVAL=100), and
// VIGIL_NO_REEXEC=1 turns the re-exec off. Only on Linux, where /proc gives the exact command line to run again.
import { readFileSync } from "node:fs";

export const ALLOCATOR_ENV: Readonly<Record<string, string>> = { MIMALLOC_PURGE_HOLES_MIN_INTERVAL: "1000" };

/** The settings the environment lacks (an operator's own values stay). */
export function missingAllocatorEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(ALLOCATOR_ENV).filter(([name]) => env[name] === undefined));
}

function reexecWithAllocatorSettings() {
  if (process.platform !== "linux" || process.env.VIGIL_NO_REEXEC === "1") return;
  const missing = missingAllocatorEnv(process.env);
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
    // Not replaced (a sandbox refusing execve): the server runs with Bun's defaults, which only cost more CPU.
  }
}

reexecWithAllocatorSettings();
