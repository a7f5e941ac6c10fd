// Test helpers for the agent: a fake host with 16 disks and 16 interfaces, as a whole file-system root.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMounts } from "./collect/linux";

/** /proc, /etc/os-release of a storage server: 16 real file systems (plus pseudo ones) and 16 interfaces. */
export const BIG_HOST_FIXTURE = join(import.meta.dir, "collect/fixtures-big");

/**
 * A temporary copy of BIG_HOST_FIXTURE with its mount points created as directories, since the collector statfs's
 * them under the root (git keeps no empty directories). Pass `root` as the Collector's procRoot or VIGIL_PROC_ROOT.
 */
export function bigHostRoot(): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), "vigil-big-host-"));
  cpSync(BIG_HOST_FIXTURE, root, { recursive: true });
  for (const m of parseMounts(readFileSync(join(root, "proc/mounts"), "utf8"))) mkdirSync(join(root, m.mountPoint), { recursive: true });
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
