// The status pages behind their routes: the pages (read once, kept until a change), and each page's public view
// cached as its JSON with an ETag. A view lives a few seconds and is dropped at once when a monitor's or agent's status
// changes on it, a page is edited, an incident or a maintenance window changes, so a crowd costs one build per page per
// few seconds and sees an outage as soon as Vigil does. A change of items on no page drops nothing: an outage of
// monitors not shown must not turn every public request into a rebuild.
import type { AgentService } from "../agents/service";
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import type { IncidentService } from "../incidents/service";
import type { MaintenanceService } from "../maintenance/service";
import type { MonitorService } from "../monitors/service";
import type { PublicStatusPage, StatusLocation, StatusPageConfigInput } from "./public";
import { createStatusStore, DEFAULT_PAGE_ID, type PageValues, type StoredConfig, type StoredPage } from "./store";
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
  incidents: IncidentService;
  /** Each location of a monitor checked from agents (server/probes), for pages that show them. */
  locations?: (monitorId: number) => Promise<StatusLocation[] | null>;
  now?: () => number;
  ttlMs?: number;
}

export function createStatusService({ db, bus, monitors, agents, maintenance, incidents, locations, now = Date.now, ttlMs = VIEW_TTL_MS }: StatusServiceOptions) {
  const store = createStatusStore(db, now);
  const builder = createViewBuilder({
    db,
    monitor: (id) => monitors.store.get(id),
    members: (id) => monitors.groups.members(id),
    uptime24h: (entry, at) => monitors.store.uptime24h(entry, at),
    agent: (id) => agents.get(id),
    inMaintenance: maintenance.inMaintenance,
    maintenance: (monitorIds, agentIds, horizon) => maintenance.around(monitorIds, agentIds, horizon),
    flush: () => monitors.writer.flush(),
    locations,
  });
  /** Every page (null: read again on next use). */
  let pages: StoredPage[] | null = null;
  /** Monitors and agents on some page (known once the pages are read; before that, "maybe" is enough). */
  let shownMonitors: Set<number> | null = null;
  let shownAgents: Set<number> | null = null;
  const cached = new Map<number, CachedView>();
  /** The builds under way, shared by the requests that arrive meanwhile (unless something changed since they began). */
  const building = new Map<number, { generation: number; view: Promise<CachedView> }>();
  /** Bumped by every change: a build that started before one is served to its waiters but not kept. */
  let generation = 0;
  const invalidate = () => {
    cached.clear();
    generation++;
  };
  const forgetPages = () => {
    pages = null; // a deleted monitor or agent left its pages (the foreign keys' cascade)
    shownMonitors = shownAgents = null;
    invalidate();
  };
  const shown = (kind: "monitor" | "agent", id: number) => {
    const set = kind === "monitor" ? shownMonitors : shownAgents;
    // A group on a page shows its members too (nested ones included).
    return set === null || set.has(id) || (kind === "monitor" && monitors.groups.ancestors(id).some((g) => set.has(g)));
  };
  bus.on("monitor.status", (e) => shown("monitor", e.monitorId) && invalidate());
  bus.on("agent.status", (e) => shown("agent", e.agentId) && invalidate());
  // A monitor or agent on no page cannot change one, not even by being deleted.
  bus.on("monitor.change", (e) => shown("monitor", e.monitorId) && forgetPages());
  bus.on("agent.change", (e) => shown("agent", e.agentId) && forgetPages());
  // Saved on another node of the cluster; incidents and maintenance (rare) show on the pages.
  bus.on("settings.change", (e) => {
    if (e.area === "status") {
      if (e.remote) forgetPages();
    } else if (e.area === "incidents" || e.area === "maintenance") invalidate();
  });
  bus.on("maintenance.change", invalidate);

  async function all(): Promise<StoredPage[]> {
    if (pages) return pages;
    const seen = generation;
    const read = await store.all();
    if (seen === generation) {
      pages = read;
      shownMonitors = new Set(read.flatMap((p) => p.monitorIds));
      shownAgents = new Set(read.flatMap((p) => p.agentIds));
    }
    return read;
  }

  const saved = () => {
    forgetPages();
    bus.emit("settings.change", { area: "status" });
  };

  async function build(page: StoredPage, at: number): Promise<CachedView> {
    const built = await builder.build(page, at, await incidents.recent());
    // The tag ignores the build time, so an unchanged page stays 304 across rebuilds. One stringify serves both:
    // the body is that JSON with generatedAt put back as the page's last key.
    const { generatedAt, ...content } = built;
    const json = JSON.stringify(content);
    const tag = Bun.hash(json).toString(36);
    const bytes = encoder.encode(`{"success":true,"page":${json.slice(0, -1)},"generatedAt":${generatedAt}}}`);
    let gzipped: Blob | null = null;
    return {
      page: built,
      body: new Blob([bytes]),
      etag: `"${tag}"`,
      gzip: () => (gzipped ??= new Blob([Bun.gzipSync(bytes)])),
      gzipEtag: `"${tag}-gzip"`,
      builtAt: at,
    };
  }

  return {
    store,
    pages: all,
    page: async (id: number) => (await all()).find((p) => p.id === id),
    bySlug: async (slug: string) => (await all()).find((p) => p.slug === slug.toLowerCase()),
    /** The page a request's Host names (custom domains compare without case and port). */
    byDomain: async (host: string) => {
      const name = host.toLowerCase().replace(/:\d+$/, "");
      return (await all()).find((p) => p.customDomain !== null && p.customDomain.toLowerCase() === name);
    },

    async config(): Promise<StoredConfig> {
      const p = (await all()).find((x) => x.id === DEFAULT_PAGE_ID)!;
      return { title: p.title, description: p.description, monitorIds: p.monitorIds, agentIds: p.agentIds, announcement: p.announcement, updatedAt: p.updatedAt };
    },
    async save(input: StatusPageConfigInput): Promise<StoredConfig> {
      const out = await store.saveConfig(input);
      saved();
      return out;
    },
    async create(values: PageValues): Promise<number> {
      const id = await store.create(values);
      saved();
      return id;
    },
    async update(id: number, values: PageValues): Promise<boolean> {
      const done = await store.save(id, values);
      if (done) saved();
      return done;
    },
    async setFeedKey(id: number, key: string | null): Promise<boolean> {
      const done = await store.setFeedKey(id, key);
      if (done) saved();
      return done;
    },
    async remove(id: number): Promise<boolean> {
      const done = await store.remove(id);
      if (done) saved();
      return done;
    },
    /** Written behind the service's back (an import, a configuration file): read the pages again. */
    reload: () => forgetPages(),

    /** A page's public view, rebuilt when older than the TTL or after a change (one build per page at a time, shared). */
    async view(pageId = DEFAULT_PAGE_ID): Promise<CachedView> {
      const at = now();
      const hit = cached.get(pageId);
      if (hit && at - hit.builtAt < ttlMs) return hit;
      const running = building.get(pageId);
      if (running?.generation === generation) return running.view;
      const page = (await all()).find((p) => p.id === pageId);
      if (!page) throw new Error(`no status page ${pageId}`);
      const seen = generation;
      const view = build(page, at).finally(() => {
        if (building.get(pageId)?.view === view) building.delete(pageId);
      });
      building.set(pageId, { generation: seen, view });
      view.then((v) => seen === generation && cached.set(pageId, v), () => {});
      return view;
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
