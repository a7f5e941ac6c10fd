// Other operating systems: what Bun's `os` module gives (no per-interface counters there).
import os from "node:os";
import { statfsSync } from "node:fs";
import type { DiskSample } from "../../server/agents/protocol";
import type { CpuTimes } from "./linux";

export function osCpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq;
  }
  return { idle, total };
}

export function osMemory() {
  const total = os.totalmem();
  const free = os.freemem();
  const used = total - free;
  return { total, used, free, usageRate: total > 0 ? Math.round((used / total) * 10_000) / 100 : 0 };
}

export function rootDisk(): DiskSample[] {
  const root = process.platform === "win32" ? "C:\\" : "/";
  try {
    const s = statfsSync(root);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    const used = (s.blocks - s.bfree) * s.bsize;
    return [{ device: root, mountPoint: root, fsType: "", total, used, free, usageRate: used + free > 0 ? Math.round((used / (used + free)) * 10_000) / 100 : 0 }];
  } catch {
    return [];
  }
}
