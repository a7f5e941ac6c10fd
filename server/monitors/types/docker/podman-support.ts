// A real Podman engine for the docker check's tests: its own storage in a temp dir, an image imported from a tarball
// of host files (no registry is reachable: /bin/sleep, /bin/sh and their libraries), containers in each state, and
// `podman system service` answering the Docker-compatible API on a Unix socket. Debian packages: podman, and runc
// where crun cannot run (crun refuses hybrid cgroup v1/v2 hosts: "cgroups in hybrid mode not supported").
import { spawn, spawnSync, type Subprocess } from "bun";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const hasPodman = (): boolean => Bun.which("podman") !== null;

export interface Podman {
  socket: string;
  /** Runs a podman command against this engine's storage; throws with its output when it fails. */
  run(...args: string[]): string;
  stop(): Promise<void>;
}

/** Whether a process still works in `dir`: conmon and its "podman container cleanup" outlive `podman rm`. */
function busy(dir: string): boolean {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dir)) return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/** The files an image needs to run /bin/sleep and /bin/sh: the programs and the libraries ldd names. */
function rootfs(dir: string): void {
  const programs = ["/bin/sleep", "/bin/dash", "/bin/true", "/bin/false"];
  const files = new Set(programs);
  for (const p of programs) {
    const ldd = spawnSync(["ldd", p]).stdout.toString();
    for (const m of ldd.matchAll(/(\/\S+) \(0x/g)) files.add(m[1]!);
  }
  for (const f of files) {
    mkdirSync(join(dir, dirname(f)), { recursive: true });
    copyFileSync(f, join(dir, f));
  }
  symlinkSync("dash", join(dir, "bin/sh"));
}

export async function startPodman(): Promise<Podman> {
  const dir = mkdtempSync(join(tmpdir(), "vigil-podman-"));
  const socket = join(dir, "engine.sock");
  // vfs: no overlay mounts needed; cgroupfs and a file event log: no systemd; runc when present (see above).
  const global = [
    "--root", join(dir, "root"), "--runroot", join(dir, "run"), "--tmpdir", join(dir, "tmp"),
    "--storage-driver", "vfs", "--cgroup-manager", "cgroupfs", "--events-backend", "file",
    ...(Bun.which("runc") ? ["--runtime", "runc"] : []),
  ];
  const run = (...args: string[]): string => {
    const r = spawnSync(["podman", ...global, ...args], { stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`podman ${args.join(" ")}: ${r.stderr.toString().trim()}`);
    return r.stdout.toString().trim();
  };
  let service: Subprocess | null = null;
  const stop = async () => {
    try {
      run("rm", "--all", "--force", "--time", "0");
    } catch {
      // The storage goes with the temp dir anyway.
    }
    service?.kill();
    await service?.exited;
    for (let i = 0; i < 100 && busy(dir); i++) await Bun.sleep(50);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    rootfs(join(dir, "rootfs"));
    spawnSync(["tar", "-C", join(dir, "rootfs"), "-cf", join(dir, "rootfs.tar"), "."]);
    run("import", "--change", 'CMD ["/bin/sleep","3600"]', join(dir, "rootfs.tar"), "vigil-test:1");
    service = spawn(["podman", ...global, "system", "service", "--time=0", `unix://${socket}`], { stdout: "ignore", stderr: "ignore" });
    for (let i = 0; i < 100; i++) {
      const ok = await fetch("http://localhost/_ping", { unix: socket } as RequestInit).then((r) => r.ok, () => false);
      if (ok) break;
      await Bun.sleep(50);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { socket, run, stop };
}

/**
 * `podman run -d` options for the test containers: no network, and file/process limits no higher than ours (a
 * container without CAP_SYS_RESOURCE, as CI runners often are, cannot raise them to Podman's defaults).
 */
export const RUN_OPTIONS = ["--network", "none", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"];
