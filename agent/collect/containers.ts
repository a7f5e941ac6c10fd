// Containers, read from the Docker Engine API on its Unix socket — Docker's, or Podman's Docker-compatible one. No
// root needed: the agent's user in the docker group (or a rootless Podman's own socket) is enough. Per report: the
// list (with every container's state and health), then for each running container its restart count and one-shot
// stats; CPU is the share since this collector's previous reading, like `docker stats`.
import { existsSync } from "node:fs";
import { MAX_CONTAINERS } from "../../server/agents/limits";
import type { ContainerInfo, ContainersSnapshot } from "../../server/agents/protocol";
import { DOCKER_SOCKET, engineHealth, engineJson, PODMAN_SOCKET, unixGet, type EngineInspect } from "../../server/monitors/types/docker/engine";

/** Sockets tried in order when none is given. */
export function defaultSockets(env: Record<string, string | undefined> = process.env): string[] {
  const list = [DOCKER_SOCKET, PODMAN_SOCKET];
  if (env.XDG_RUNTIME_DIR) list.push(`${env.XDG_RUNTIME_DIR}/podman/podman.sock`, `${env.XDG_RUNTIME_DIR}/docker.sock`);
  if (env.DOCKER_HOST?.startsWith("unix://")) list.unshift(env.DOCKER_HOST.slice("unix://".length));
  return list;
}

/** Requests to the engine at once, and how long each may take. */
const CONCURRENCY = 8;
const TIMEOUT_MS = 5_000;

interface ListEntry {
  Id: string;
  Names?: string[];
  Image?: string;
  State?: string;
  Status?: string;
}
interface Stats {
  cpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number; online_cpus?: number };
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
}

/** The health a list entry's status line states ("Up 5 minutes (unhealthy)"), when inspect is not asked. */
export const healthFromStatus = (status = ""): ContainerInfo["health"] =>
  /\(healthy\)/.test(status) ? "healthy" : /\(unhealthy\)/.test(status) ? "unhealthy" : /\(health: starting\)/.test(status) ? "starting" : null;

/** Memory in use as docker stats shows it: the page cache (inactive files) left out. */
export function memoryUsed(m: Stats["memory_stats"]): number | null {
  if (!m || typeof m.usage !== "number") return null;
  const cache = m.stats?.inactive_file ?? m.stats?.total_inactive_file ?? m.stats?.cache ?? 0;
  return Math.max(0, m.usage - Math.min(cache, m.usage));
}

export class ContainerCollector {
  private socket: string | null;
  private readonly explicit: boolean;
  /** The previous CPU reading per container: [container total, system total]. */
  private prevCpu = new Map<string, [number, number]>();

  private readonly candidates: string[];
  private readonly request: (path: string, socket: string) => Promise<Response>;

  /**
   * `socket`: a path, "off", or undefined to look for one of `candidates` (defaultSockets()). `request` replaces the
   * HTTP call over the socket (tests); Bun's fetch fails with code EACCES when the socket's permissions refuse us.
   */
  constructor(socket?: string, options: { candidates?: string[]; request?: (path: string, socket: string) => Promise<Response> } = {}) {
    this.explicit = socket !== undefined;
    this.socket = socket ?? null;
    this.candidates = options.candidates ?? defaultSockets();
    this.request = options.request ?? ((path, unix) => unixGet(unix, path, AbortSignal.timeout(TIMEOUT_MS)));
  }

  private async get<T>(path: string, socket: string): Promise<{ status: number; body: T | null }> {
    return engineJson<T>(await this.request(path, socket));
  }

  async snapshot(now = Date.now()): Promise<ContainersSnapshot> {
    const empty = (access: ContainersSnapshot["access"], socket: string, message?: string): ContainersSnapshot => ({
      time: now, access, socket, total: 0, list: [], ...(message ? { message } : {}),
    });
    if (this.socket === "off") return empty("off", "off");
    const socket = this.socket ?? this.candidates.find((p) => existsSync(p));
    if (!socket) return empty("unavailable", this.candidates[0]!, "no Docker or Podman socket found");
    if (!this.explicit) this.socket = null; // look again next time: the engine may come and go
    let listed: { status: number; body: ListEntry[] | null };
    let engine: string | undefined;
    try {
      listed = await this.get<ListEntry[]>("/containers/json?all=true", socket);
      const version = await this.get<{ Version?: string; Components?: { Name?: string }[] }>("/version", socket).catch(() => null);
      const name = version?.body?.Components?.[0]?.Name?.startsWith("Podman") ? "Podman" : "Docker";
      if (version?.body?.Version) engine = `${name} ${version.body.Version}`.slice(0, 128);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "EACCES" || code === "EPERM" || /EACCES|permission denied/i.test(String((e as Error).message))) return empty("denied", socket, `permission denied reading ${socket}: add the agent's user to the docker group`);
      return empty("unavailable", socket, `${socket} does not answer: ${(e as Error).message}`.slice(0, 512));
    }
    if (listed.status !== 200 || !Array.isArray(listed.body)) return empty("unavailable", socket, `the engine answered HTTP ${listed.status}`);

    const entries = listed.body.slice(0, MAX_CONTAINERS);
    const list: ContainerInfo[] = await mapLimited(entries, CONCURRENCY, (c) => this.describe(c, socket));
    const live = new Set(entries.map((c) => c.Id));
    for (const id of this.prevCpu.keys()) if (!live.has(id)) this.prevCpu.delete(id);
    return { time: now, access: "ok", socket, ...(engine ? { engine } : {}), total: listed.body.length, list };
  }

  private async describe(c: ListEntry, socket: string): Promise<ContainerInfo> {
    const info: ContainerInfo = {
      id: c.Id.slice(0, 12),
      name: (c.Names?.[0] ?? c.Id.slice(0, 12)).replace(/^\//, "").slice(0, 256),
      image: (c.Image ?? "").slice(0, 512),
      state: (c.State ?? "unknown").slice(0, 32),
      health: healthFromStatus(c.Status),
      restarts: 0,
      cpu: null,
      memory: null,
      memoryLimit: null,
      startedAt: null,
    };
    try {
      const inspect = (await this.get<EngineInspect>(`/containers/${c.Id}/json`, socket)).body;
      info.restarts = Math.max(0, Math.floor(inspect?.RestartCount ?? 0));
      info.health = engineHealth(inspect?.State?.Health?.Status) ?? info.health;
      const started = Date.parse(inspect?.State?.StartedAt ?? "");
      info.startedAt = Number.isFinite(started) && started > 0 ? started : null;
      if (info.state !== "running") {
        this.prevCpu.delete(c.Id);
        return info;
      }
      const stats = (await this.get<Stats>(`/containers/${c.Id}/stats?stream=false&one-shot=true`, socket)).body;
      info.memory = memoryUsed(stats?.memory_stats);
      info.memoryLimit = typeof stats?.memory_stats?.limit === "number" ? stats.memory_stats.limit : null;
      const total = stats?.cpu_stats?.cpu_usage?.total_usage;
      const system = stats?.cpu_stats?.system_cpu_usage;
      if (typeof total === "number" && typeof system === "number") {
        const prev = this.prevCpu.get(c.Id);
        this.prevCpu.set(c.Id, [total, system]);
        const cpus = stats?.cpu_stats?.online_cpus || 1;
        if (prev && system > prev[1] && total >= prev[0]) info.cpu = Math.round(((total - prev[0]) / (system - prev[1])) * cpus * 10_000) / 100;
      }
    } catch {
      // A container that went away between the list and its details keeps what the list said.
    }
    return info;
  }
}

async function mapLimited<T, R>(items: T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
