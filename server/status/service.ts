// The status page behind its routes: the configuration, and the public view cached as its JSON with an ETag. The
// cache lives a few seconds and is dropped at once when a monitor's or agent's status changes or the page is
// edited, so a crowd costs one build per few seconds and sees an outage as soon as Vigil does. Only changes of items
// on the page drop it: an outage of monitors not shown must not turn every public request into a rebuild.
import type { AgentService } from "../agents/service";
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import type { MaintenanceService } from "../maintenance/service";
import type { MonitorService } from "../monitors/service";
import type { PublicStatusPage, StatusPageConfigInput } from "./public";
import { createStatusStore, type StoredConfig } from "./store";
import { createViewBuilder } from "./view";

/** How long a built view is served before the next request rebuilds it. */
export const VIEW_TTL_MS = 5_000;

const encoder = new TextEncoder();

export interface CachedView {
  page: PublicStatusPage;
  /** The reply as UTF-8 JSON, encoded once per build. A Blob, because a Response shares a Blob's bytes but copies
   * an array's, and the page is hundreds of KB. */
  body: Blob;
  etag: string;
  /** The body gzip-compressed, made on first demand and kept with the view (90 daily bars per monitor make the JSON
   * large and repetitive: ≈ 15× smaller, which is what lets a crowd of browsers be served). */
  gzip(): Blob;
  /** The gzip representation's tag: other bytes, so another strong validator. */
  gzipEtag: string;
  builtAt: number;
}

export interface StatusServiceOptions {
  db: Db;
  bus: EventBus;
  monitors: MonitorService;
  agents: AgentService;
  maintenance: MaintenanceService;
  now?: () => number;
  ttlMs?: number;
}

export function createStatusService({ db, bus, monitors, agents, maintenance, now = Date.now, ttlMs = VIEW_TTL_MS }: StatusServiceOptions) {
  const store = createStatusStore(db, now);
  const builder = createViewBuilder({
    db,
    monitor: (id) => monitors.store.get(id),
    uptime24h: (entry, at) => monitors.store.uptime24h(entry, at),
    agent: (id) => agents.get(id),
    inMaintenance: maintenance.inMaintenance,
    maintenance: (monitorIds, agentIds, horizon) => maintenance.around(monitorIds, agentIds, horizon),
    flush: () => monitors.writer.flush(),
  });
  let config: StoredConfig | null = null;
  let cached: CachedView | null = null;
  /** The build under way, shared by the requests that arrive meanwhile (unless something changed since it began). */
  let building: { generation: number; view: Promise<CachedView> } | null = null;
  /** Bumped by every change: a build that started before one is served to its waiters but not kept. */
  let generation = 0;
  const invalidate = () => {
    cached = null;
    generation++;
  };
  const forgetConfig = () => {
    config = null; // a deleted monitor or agent left the page (the foreign key's cascade)
    invalidate();
  };
  /** Whether an item is on the page (before the configuration is read nothing is cached, so "maybe" is enough). */
  const shown = (kind: "monitorIds" | "agentIds", id: number) => config === null || config[kind].includes(id);
  bus.on("monitor.status", (e) => shown("monitorIds", e.monitorId) && invalidate());
  bus.on("agent.status", (e) => shown("agentIds", e.agentId) && invalidate());
  // A monitor or agent not on the page cannot change it, not even by being deleted.
  bus.on("monitor.change", (e) => shown("monitorIds", e.monitorId) && forgetConfig());
  bus.on("agent.change", (e) => shown("agentIds", e.agentId) && forgetConfig());
  // Saved on another node of the cluster.
  bus.on("settings.change", (e) => e.remote && e.area === "status" && forgetConfig());
  // Maintenance started, ended or was edited (rare): the page shows it, and statuses turn blue or back.
  bus.on("maintenance.change", invalidate);
  bus.on("settings.change", (e) => e.area === "maintenance" && invalidate());

  const service = {
    store,

    async config(): Promise<StoredConfig> {
      if (config) return config;
      const seen = generation;
      const read = await store.get();
      if (seen === generation) config = read;
      return read;
    },

    async save(input: StatusPageConfigInput): Promise<StoredConfig> {
      const saved = await store.save(input);
      config = saved;
      invalidate();
      bus.emit("settings.change", { area: "status" });
      return saved;
    },

    /** The public view, rebuilt when older than the TTL or after a change (one build at a time, shared). */
    view(): Promise<CachedView> {
      const at = now();
      if (cached && at - cached.builtAt < ttlMs) return Promise.resolve(cached);
      if (building?.generation === generation) return building.view;
      const seen = generation;
      const view = build(at).finally(() => {
        if (building?.view === view) building = null;
      });
      building = { generation: seen, view };
      view.then((v) => seen === generation && (cached = v), () => {});
      return view;
    },
  };

  async function build(at: number): Promise<CachedView> {
    const page = await builder.build(await service.config(), at);
    // The tag ignores the build time, so an unchanged page stays 304 across rebuilds. One stringify serves both:
    // the body is that JSON with generatedAt put back as the page's last key.
    const { generatedAt, ...content } = page;
    const json = JSON.stringify(content);
    const tag = Bun.hash(json).toString(36);
    const bytes = encoder.encode(`{"success":true,"page":${json.slice(0, -1)},"generatedAt":${generatedAt}}}`);
    let gzipped: Blob | null = null;
    return {
      page,
      body: new Blob([bytes]),
      etag: `"${tag}"`,
      gzip: () => (gzipped ??= new Blob([Bun.gzipSync(bytes)])),
      gzipEtag: `"${tag}-gzip"`,
      builtAt: at,
    };
  }

  return service;
}

export type StatusService = ReturnType<typeof createStatusService>;
