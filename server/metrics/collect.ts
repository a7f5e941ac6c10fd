// What GET /metrics says, read in one pass from the in-memory state of monitors and agents (no per-monitor query),
// plus two indexed counts for the notification outbox (awaited: they read the database) and the process's own figures.
import type { AgentService } from "../agents/service";
import type { Cluster } from "../cluster/service";
import type { MaintenanceService } from "../maintenance/service";
import type { MonitorService } from "../monitors/service";
import { VERSION } from "../version";
import { Exposition, escapeLabelValue, labelSet, line } from "./exposition";

export interface MetricsSources {
  monitors: Pick<MonitorService, "store" | "scheduler">;
  agents: Pick<AgentService, "list">;
  /** Its counts, or a promise of them. */
  outbox: { backlog(): Backlog | Promise<Backlog> };
  /** This node (its role and share when several share the database). */
  cluster?: Pick<Cluster, "node" | "role" | "leaseCount" | "stats">;
  maintenance?: Pick<MaintenanceService, "counts">;
  now?: () => number;
}

type Backlog = { messages: number; events: number };

const DAY_MS = 86_400_000;
/** When this process started, Unix seconds (the process_start_time_seconds convention). */
const START_TIME_SECONDS = Math.round((Date.now() / 1000 - process.uptime()) * 1000) / 1000;

/**
 * `{id="…",name="…"}` per monitor or agent object, kept while its name stays the same: escaping and joining 10 000
 * label sets on every scrape was most of a scrape's cost.
 */
const labelCache = new WeakMap<object, { name: string; type?: string; labels: string }>();
function labelsOf(target: object, id: number, name: string, type?: string): string {
  const hit = labelCache.get(target);
  if (hit && hit.name === name && hit.type === type) return hit.labels;
  const labels = `{id="${id}",name="${escapeLabelValue(name)}"${type ? `,type="${type}"` : ""}}`;
  labelCache.set(target, { name, type, labels });
  return labels;
}

export async function renderMetrics({ monitors, agents, outbox, cluster, maintenance, now = Date.now }: MetricsSources): Promise<string> {
  const t = now();
  // The database's part first, so it runs while the rest is rendered from memory.
  const outboxCounts = outbox.backlog();
  const out = new Exposition();

  out.family("vigil_build_info", "gauge", "Always 1; the labels name the Vigil version and the Bun runtime.", line("vigil_build_info", labelSet({ version: VERSION, bun: Bun.version }), 1));

  // ── Monitors ─────────────────────────────────────────────────────────────────────────────────────────────────
  // One string per family, appended to (cheaper than arrays of lines joined).
  let up = "";
  let responseTime = "";
  let tlsDays = "";
  const byStatus = { up: 0, down: 0, pending: 0, paused: 0 };
  for (const entry of monitors.store.all()) {
    const f = entry.fields;
    const s = entry.state;
    if (!f.active) {
      byStatus.paused++;
      continue; // a paused monitor has no current verdict: it is only counted
    }
    byStatus[s.status]++;
    const labels = labelsOf(entry, entry.id, f.name, f.type);
    if (s.status !== "pending") up += `vigil_monitor_up${labels} ${s.status === "up" ? 1 : 0}\n`;
    if (s.lastResponseTime !== null) responseTime += `vigil_monitor_response_time_seconds${labels} ${s.lastResponseTime / 1000}\n`;
    // Only for https targets: a monitor edited from https to http keeps its old expiry in the row.
    if (s.tlsExpiresAt !== null && f.type === "http" && /^https:/i.test(f.url)) {
      tlsDays += `vigil_monitor_tls_days_left${labels} ${Math.round(((s.tlsExpiresAt - t) / DAY_MS) * 1000) / 1000}\n`;
    }
  }
  out.family(
    "vigil_monitors",
    "gauge",
    "Monitors by status: up, down, pending (no verdict yet) and paused.",
    Object.entries(byStatus).map(([status, n]) => line("vigil_monitors", `{status="${status}"}`, n)),
  );
  out.family(
    "vigil_monitor_up",
    "gauge",
    "1 when the monitor's verdict is up, 0 when down (after its retries). No sample while it is paused or pending (not checked yet).",
    up,
  );
  out.family(
    "vigil_monitor_response_time_seconds",
    "gauge",
    "Response time of the monitor's last check. No sample when that check failed without an answer, or the monitor is paused.",
    responseTime,
  );
  out.family(
    "vigil_monitor_tls_days_left",
    "gauge",
    "Days until the TLS certificate of an https monitor expires (negative once expired). Only once the certificate has been looked up.",
    tlsDays,
  );

  // ── Agents ───────────────────────────────────────────────────────────────────────────────────────────────────
  let online = "";
  let cpu = "";
  let memory = "";
  let disk = "";
  let lastSeen = "";
  const agentsBy = { online: 0, offline: 0, connecting: 0 };
  for (const a of agents.list()) {
    agentsBy[a.status]++;
    const labels = labelsOf(a, a.id, a.name);
    online += `vigil_agent_online${labels} ${a.status === "online" ? 1 : 0}\n`;
    if (a.lastSeenAt !== null) lastSeen += `vigil_agent_last_seen_timestamp_seconds${labels} ${a.lastSeenAt / 1000}\n`;
    // An offline agent's figures are its last report, not the present: left out rather than shown as current.
    const s = a.latest;
    if (a.status !== "online" || !s) continue;
    cpu += `vigil_agent_cpu_ratio${labels} ${s.cpu.usage / 100}\n`;
    memory += `vigil_agent_memory_ratio${labels} ${s.memory.usageRate / 100}\n`;
    if (s.disks.length) {
      let fullest = 0;
      for (const d of s.disks) if (d.usageRate > fullest) fullest = d.usageRate;
      disk += `vigil_agent_disk_ratio${labels} ${fullest / 100}\n`;
    }
  }
  out.family(
    "vigil_agents",
    "gauge",
    "Agents by status: online, offline (3 reports missed) and connecting (registered, never reported).",
    Object.entries(agentsBy).map(([status, n]) => line("vigil_agents", `{status="${status}"}`, n)),
  );
  out.family("vigil_agent_online", "gauge", "1 while the agent reports, 0 when offline or not reporting yet.", online);
  out.family("vigil_agent_last_seen_timestamp_seconds", "gauge", "When the agent's last report arrived, Unix seconds.", lastSeen);
  out.family("vigil_agent_cpu_ratio", "gauge", "CPU usage of an online agent's latest sample, 0 to 1.", cpu);
  out.family("vigil_agent_memory_ratio", "gauge", "Memory usage of an online agent's latest sample, 0 to 1.", memory);
  out.family("vigil_agent_disk_ratio", "gauge", "Usage of an online agent's fullest disk in its latest sample, 0 to 1.", disk);

  if (maintenance) {
    const inMaintenance = maintenance.counts(monitors.store.size, agentsBy.online + agentsBy.offline + agentsBy.connecting);
    out.family(
      "vigil_maintenance_targets",
      "gauge",
      "Monitors and agents in a maintenance window now (nothing is notified for them).",
      [line("vigil_maintenance_targets", `{type="monitor"}`, inMaintenance.monitors), line("vigil_maintenance_targets", `{type="agent"}`, inMaintenance.agents)],
    );
  }

  // ── Scheduler, outbox ───────────────────────────────────────────────────────────────────────────────────────
  out.histogram(
    "vigil_scheduler_lateness_seconds",
    "How late scheduled checks started after their slot (immediate checks on create or edit are not counted).",
    monitors.scheduler.latenessHistogram(),
  );
  const backlog = await outboxCounts;
  out.single("vigil_notification_outbox_pending", "gauge", "Notification messages waiting to be sent or retried.", backlog.messages);
  out.single(
    "vigil_notification_outbox_events_waiting",
    "gauge",
    "Notification events not yet in a message (gathered while a channel paces its messages).",
    backlog.events,
  );

  // ── This node ───────────────────────────────────────────────────────────────────────────────────────────────
  // Every node of a cluster answers for itself: scrape each one (the monitor and agent figures above are the same on
  // all of them; these are not).
  if (cluster) {
    const node = `{node="${escapeLabelValue(cluster.node)}"}`;
    const stats = cluster.stats();
    const scheduler = monitors.scheduler.stats();
    out.single("vigil_node_info", "gauge", "Always 1; the labels name this node and its role (standalone, leader, member).", 1, `{node="${escapeLabelValue(cluster.node)}",role="${cluster.role()}"}`);
    out.single("vigil_node_leases", "gauge", "Monitor buckets (of 256) this node checks: all of them when standalone.", cluster.leaseCount(), node);
    out.single("vigil_node_monitors_scheduled", "gauge", "Active monitors on this node's schedule.", scheduler.monitors, node);
    out.single("vigil_node_checks_total", "counter", "Checks this node has run since it started.", scheduler.completed, node);
    if (stats.leases) {
      out.single("vigil_node_lease_renewal_failures_total", "counter", "Lease renewals that failed (the database was unreachable or slow).", stats.leases.failures, node);
      out.single("vigil_node_leases_gained_total", "counter", "Buckets this node took over (joins, failovers).", stats.leases.gained, node);
    }
    if (stats.bridge) {
      out.single("vigil_node_cluster_messages_sent_total", "counter", "Events this node told the other nodes.", stats.bridge.sent, node);
      out.single("vigil_node_cluster_messages_received_total", "counter", "Events this node heard from the other nodes.", stats.bridge.received, node);
    }
  }

  // ── Process ──────────────────────────────────────────────────────────────────────────────────────────────────
  const cpuUsage = process.cpuUsage();
  const mem = process.memoryUsage();
  out.single("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", (cpuUsage.user + cpuUsage.system) / 1e6);
  out.single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", mem.rss);
  out.single("process_heap_bytes", "gauge", "JavaScript heap in use, bytes.", mem.heapUsed);
  out.single("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", START_TIME_SECONDS);
  return out.text();
}
