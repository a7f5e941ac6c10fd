// The status page behind its routes: the configuration, and the public view cached as its JSON with an ETag. The
// cache lives a few seconds and is dropped at once when a monitor's or agent's status changes or the page is
// edited, so a crowd costs one build per few seconds and sees an outage as soon as Vigil does.
import type { AgentService } from "../agents/service";
import type { Db } from "../db/open";
import type { EventBus } from "../events";
import type { MonitorService } from "../monitors/service";
import type { PublicStatusPage, StatusPageConfigInput } from "./public";
import { createStatusStore, type StoredConfig } from "./store";
import { createViewBuilder } from "./view";

/** How long a built view is served before the next request rebuilds it. */
export const VIEW_TTL_MS = 5_000;

export interface CachedView {
  page: PublicStatusPage;
  /** The page as JSON, sent as it is. */
  body: string;
  etag: string;
  builtAt: number;
}

export interface StatusServiceOptions {
  db: Db;
  bus: EventBus;
  monitors: MonitorService;
  agents: AgentService;
  now?: () => number;
  ttlMs?: number;
}

export function createStatusService({ db, bus, monitors, agents, now = Date.now, ttlMs = VIEW_TTL_MS }: StatusServiceOptions) {
  const store = createStatusStore(db, now);
  const builder = createViewBuilder({
    db,
    monitor: (id) => monitors.store.get(id),
    uptime24h: (entry, at) => monitors.store.uptime24h(entry, at),
    agent: (id) => agents.get(id),
    flush: () => monitors.writer.flush(),
  });
  let config: StoredConfig | null = null;
  let cached: CachedView | null = null;
  const invalidate = () => {
    cached = null;
  };
  const forgetConfig = () => {
    config = null; // a deleted monitor or agent left the page (the foreign key's cascade)
    cached = null;
  };
  bus.on("monitor.status", invalidate);
  bus.on("agent.status", invalidate);
  bus.on("monitor.change", forgetConfig);
  bus.on("agent.change", forgetConfig);

  return {
    store,

    config(): StoredConfig {
      return (config ??= store.get());
    },

    save(input: StatusPageConfigInput): StoredConfig {
      config = store.save(input);
      cached = null;
      return config;
    },

    /** The public view, rebuilt when older than the TTL or after a change. */
    view(): CachedView {
      const at = now();
      if (cached && at - cached.builtAt < ttlMs) return cached;
      const page = builder.build(this.config(), at);
      const body = JSON.stringify({ success: true, page });
      // The tag ignores the build time: an unchanged page stays 304 across rebuilds.
      const etag = `"${Bun.hash(JSON.stringify({ ...page, generatedAt: 0 })).toString(36)}"`;
      cached = { page, body, etag, builtAt: at };
      return cached;
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
