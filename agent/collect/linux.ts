// Linux metrics from /proc and statfs. Parsers are pure (they take file contents) so tests feed them fixtures.
import { readFileSync, statfsSync } from "node:fs";
import { join } from "node:path";
import type { DiskSample, InterfaceSample } from "../../server/agents/protocol";

export interface CpuTimes {
  idle: number;
  total: number;
}

/** The aggregate "cpu" line of /proc/stat: idle includes iowait; steal and guest are not double-counted. */
export function parseProcStat(text: string): CpuTimes {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error("no cpu line in /proc/stat");
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  // guest time is already included in user/nice.
  const idleAll = idle + iowait;
  return { idle: idleAll, total: user + nice + system + idleAll + irq + softirq + steal };
}

/** CPU busy percentage between two /proc/stat readings. */
export function cpuUsage(prev: CpuTimes, next: CpuTimes): number {
  const total = next.total - prev.total;
  if (total <= 0) return 0;
  return clampPercent(((total - (next.idle - prev.idle)) / total) * 100);
}

export function parseCpuModel(cpuinfo: string): string {
  const m = cpuinfo.match(/^(?:model name|Model|Hardware|cpu model)\s*:\s*(.+)$/m);
  return m ? m[1].trim() : "unknown";
}

export interface Memory {
  total: number;
  used: number;
  free: number;
  usageRate: number;
}

/** Used = MemTotal − MemAvailable, as `free` reports it; free = MemFree. */
export function parseMeminfo(text: string): Memory {
  const kb = (key: string) => {
    const m = text.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"));
    return m ? Number(m[1]) * 1024 : undefined;
  };
  const total = kb("MemTotal") ?? 0;
  const free = kb("MemFree") ?? 0;
  // Kernels before 3.14 lack MemAvailable: estimate it as free + buffers + page cache.
  const available = kb("MemAvailable") ?? free + (kb("Buffers") ?? 0) + (kb("Cached") ?? 0);
  const used = Math.max(0, total - available);
  return { total, used, free, usageRate: total > 0 ? clampPercent((used / total) * 100) : 0 };
}

export interface Mount {
  device: string;
  mountPoint: string;
  fsType: string;
}

// Pseudo, virtual and read-only image file systems: never a disk an operator fills up.
const SKIPPED_FS = new Set([
  "proc", "sysfs", "devtmpfs", "devpts", "tmpfs", "ramfs", "overlay", "squashfs", "cgroup", "cgroup2", "securityfs",
  "pstore", "debugfs", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs", "autofs", "binfmt_misc", "bpf",
  "nsfs", "efivarfs", "rpc_pipefs", "selinuxfs", "fuse.lxcfs", "fuse.portal", "iso9660", "nfsd", "zram",
]);

/** Real file systems from /proc/mounts, one entry per device (the first mount point wins: bind mounts repeat). */
export function parseMounts(text: string, only?: string[]): Mount[] {
  const seen = new Set<string>();
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const [device, rawMountPoint, fsType] = line.split(" ");
    if (!device || !rawMountPoint || !fsType) continue;
    const mountPoint = rawMountPoint.replace(/\\(\d{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)));
    if (only?.length) {
      if (!only.includes(mountPoint) && !only.includes(device)) continue;
    } else if (SKIPPED_FS.has(fsType) || !device.startsWith("/") || seen.has(device)) {
      continue;
    }
    seen.add(device);
    mounts.push({ device, mountPoint, fsType });
  }
  return mounts;
}

export function diskUsage(mount: Mount, statfs: (path: string) => { bsize: number; blocks: number; bfree: number; bavail: number }): DiskSample {
  const s = statfs(mount.mountPoint);
  const total = s.blocks * s.bsize;
  const free = s.bavail * s.bsize;
  // Like df: used excludes the reserved blocks, and the rate is used / (used + available to users).
  const used = (s.blocks - s.bfree) * s.bsize;
  return { ...mount, total, used, free, usageRate: used + free > 0 ? clampPercent((used / (used + free)) * 100) : 0 };
}

export interface InterfaceCounters {
  name: string;
  received: number;
  packetsReceived: number;
  sent: number;
  packetsSent: number;
}

const SKIPPED_INTERFACES = /^(lo|veth.*|docker\d*|br-.*|virbr.*|ifb\d*|cni.*|flannel.*|cali.*)$/;

export function parseNetDev(text: string, only?: string[]): InterfaceCounters[] {
  const out: InterfaceCounters[] = [];
  for (const line of text.split("\n").slice(2)) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (only?.length ? !only.includes(name) : SKIPPED_INTERFACES.test(name)) continue;
    const f = line.slice(colon + 1).trim().split(/\s+/).map(Number);
    out.push({ name, received: f[0], packetsReceived: f[1], sent: f[8], packetsSent: f[9] });
  }
  return out;
}

/** Per-second rates against the previous counters; a counter that went backwards (reboot, wrap) counts as 0. */
export function networkRates(prev: Map<string, InterfaceCounters>, next: InterfaceCounters[], seconds: number): InterfaceSample[] {
  return next.map((n) => {
    const p = prev.get(n.name);
    const rate = (a: number, b: number | undefined) => (b === undefined || seconds <= 0 || a < b ? 0 : (a - b) / seconds);
    return { ...n, rxRate: rate(n.received, p?.received), txRate: rate(n.sent, p?.sent) };
  });
}

export function parseLoadavg(text: string) {
  const [one, five, fifteen] = text.trim().split(/\s+/).map(Number);
  return { one, five, fifteen };
}

export function parseUptime(text: string): number {
  return Number(text.trim().split(/\s+/)[0]);
}

export function parseOsRelease(text: string): string {
  const m = text.match(/^PRETTY_NAME="?([^"\n]+)"?$/m);
  return m ? m[1] : "Linux";
}

function clampPercent(v: number): number {
  return Math.min(100, Math.max(0, Math.round(v * 100) / 100));
}

/**
 * Reads the /proc files under `root` ("/" normally; a fixture directory in tests). Mount points are statfs'd under
 * `root` too, so a fixture is a whole fake file-system root with its mount points as directories.
 */
export function procReader(root = "/") {
  const read = (path: string) => readFileSync(join(root, path), "utf8");
  const tryRead = (path: string) => {
    try {
      return read(path);
    } catch {
      return "";
    }
  };
  return { read, tryRead, statfs: (path: string) => statfsSync(root === "/" ? path : join(root, path)) };
}
