// This process's place in a cluster. On SQLite there is one node ("standalone") and it checks everything. On
// PostgreSQL every process pointed at the same database is a node: leases (leases.ts) decide which monitors each one
// checks, the bridge (bridge.ts) carries what one learns to the others, and the holder of bucket 0 runs the chores
// that must run once (rollups, retention). Nothing to configure beyond a node name.
import type { Db } from "../db/database";
import { silentLogger, type Logger } from "../log";
import type { AgentService } from "../agents/service";
import type { EventBus, SettingsArea } from "../events";
import type { MonitorService } from "../monitors/service";
import type { ProblemChange } from "../problems/public";
import { createBridge, type Bridge } from "./bridge";
import type { NodeRole, NodeView } from "./public";
import { BUCKETS, createLeases, databaseClock, LEASE_MS, listNodes, TICK_MS, type Leases } from "./leases";

export type { NodeRole, NodeView };

export interface ClusterOptions {
  db: Db;
  node: string;
  version: string;
  /** Where this node listens (shown in the nodes view). */
  address?: string | null;
  monitors: MonitorService;
  agents: AgentService;
  /** This node's event bus: changed users are passed on (their sessions end on every node). */
  bus: EventBus;
  log?: Logger;
  leaseMs?: number;
  tickMs?: number;
  /** How long a node that gained monitors waits for the last results of the node that had them (ms). */
  catchUpDelayMs?: number;
  /** Monitors were gained: called (and awaited) before they are scheduled here. */
  onGained?: () => Promise<void>;
}

export type Cluster = ReturnType<typeof createCluster>;

/** What nodes say that is left unsaid while a node is alone: frequent, and each message carries the whole state. */
const UNHEARD_ALONE = new Set(["monitor.result", "agent.report"]);

export function createCluster(options: ClusterOptions) {
  const { db, node, monitors, agents, bus } = options;
  const log = options.log ?? silentLogger;
  const startedAt = Date.now();
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const onPostgres = db.engine === "postgres";
  let bridge: Bridge | null = null;
  let leases: Leases | null = null;
  let address = options.address ?? null;
  const tickMs = options.tickMs ?? TICK_MS;
  const resync = () => void monitors.resync().catch((e) => log.error("resync failed", { error: String(e) }));
  /** A re-read planned for once the other nodes have seen this one (see onReappear). */
  let reread: ReturnType<typeof setTimeout> | undefined;

  if (onPostgres) {
    bridge = createBridge({ db, log, onResync: resync });
    leases = createLeases({
      db,
      node,
      version: options.version,
      get address() {
        return address;
      },
      log,
      leaseMs,
      tickMs,
      // A node alone publishes no check results (below): the nodes that had not seen this one until their next tick
      // told it nothing of theirs meanwhile, so it re-reads its state once they have (and have written what they did).
      onReappear: () => {
        clearTimeout(reread);
        reread = setTimeout(() => leases!.others() > 0 && resync(), tickMs + 2000);
        (reread as { unref?: () => void }).unref?.();
      },
      onChange: async ({ gained, lost }) => {
        if (lost.length) await monitors.giveUp();
        if (gained.length) {
          await options.onGained?.().catch((e) => log.error("catching up on gained monitors failed", { error: String((e as Error)?.message ?? e) }));
          monitors.takeOver(options.catchUpDelayMs ?? 1000);
        }
        const chores = leases!.buckets().includes(0);
        monitors.setChores(chores);
        agents.setChores(chores);
      },
    });
  }
  let joined = false;
  /** Between start() and stop(); alone (SQLite) there is nothing to run, but it was started like the rest. */
  let started = false;

  const role = (): NodeRole => (!leases || !joined ? "standalone" : leases.buckets().includes(0) ? "leader" : "member");

  return {
    node,
    /** Whether this node has joined a cluster (PostgreSQL, started). */
    get clustered() {
      return joined;
    },
    role,
    /** Whether this node is in charge of the monitor or agent with this id (every one, alone). */
    owns: (id: number) => !joined || leases!.owns(id),
    /** Whether this node runs the once-per-cluster chores (rollups, retention, reminders). */
    leads: () => role() !== "member",
    /** Monitor buckets this node checks (all of them when standalone). */
    leaseCount: () => (leases && joined ? leases.holding() : BUCKETS),
    /** The events channel between nodes (null when standalone). */
    bridge,
    leases,

    /** What /healthz tells about this node. */
    health: () => ({ node, role: role(), leases: leases && joined ? leases.holding() : BUCKETS, buckets: BUCKETS }),

    /** Figures for /metrics. */
    stats: () => ({ role: role(), leases: leases?.stats() ?? null, bridge: bridge?.stats() ?? null }),

    /** Every node of the cluster (this one alone when standalone), live ones first. */
    async nodes(): Promise<NodeView[]> {
      if (!joined) {
        return [{ name: node, version: options.version, address, startedAt, heartbeatAt: Date.now(), live: true, stoppedAt: null, leases: BUCKETS, self: true }];
      }
      const at = await databaseClock(db)();
      const rows = await listNodes(db, at, leaseMs);
      return rows.map((r) => ({ ...r, self: r.name === node })).sort((a, b) => Number(b.live) - Number(a.live) || a.name.localeCompare(b.name));
    },

    get running() {
      return started;
    },

    /** Joins: listens to the other nodes first (so nothing they say about gained monitors is missed), then leases. */
    async start(listeningAt?: string) {
      if (listeningAt) address = listeningAt;
      started = true;
      if (!onPostgres || joined) return;
      const b = bridge!;
      const l = leases!;
      // Until start() (tests that build services without starting them), this node checks everything. Check results
      // and agent reports (most of what nodes say) go unsaid while no other node is live: nobody would hear them, and
      // on one node they cost PostgreSQL a NOTIFY queue and this node the reading back of its own messages.
      const publish = (kind: string, data: unknown) => (l.others() === 0 && UNHEARD_ALONE.has(kind) ? undefined : b.publish(kind, data));
      const peers = { owns: (id: number) => l.owns(id), publish, on: (kind: string, h: (data: unknown) => void) => b.on(kind, h) };
      monitors.joinCluster({ ...peers, flush: () => b.flush() });
      agents.joinCluster(peers);
      agents.setChores(false);
      // A user changed or deleted on any node: every node re-checks its open sessions (auth/session-watch.ts).
      bus.on("user.change", (e) => !e.remote && b.publish("user.change", e));
      b.on("user.change", (e) => bus.emit("user.change", { ...(e as { userId: number; kind: "updated" | "deleted" }), remote: true }));
      // Settings saved on any node: the others drop what they cached.
      bus.on("settings.change", (e) => !e.remote && b.publish("settings.change", e));
      b.on("settings.change", (e) => bus.emit("settings.change", { ...(e as { area: SettingsArea }), remote: true }));
      // Problems raised, acknowledged or resolved on any node: every node's browsers are told.
      bus.on("problem.change", (e) => !e.remote && b.publish("problem.change", e));
      b.on("problem.change", (e) => bus.emit("problem.change", { ...(e as ProblemChange), remote: true }));
      joined = true;
      await b.start();
      await l.start();
    },

    /** Leaves cleanly: the monitors go back to the others at once rather than after their leases expire. */
    async stop() {
      started = false;
      clearTimeout(reread);
      if (!joined) return;
      await leases!.stop();
      await bridge!.stop();
    },
  };
}
