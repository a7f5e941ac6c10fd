import { and, asc, eq, gt, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { first, type Db, type Orm } from "../db/database";
import type { ContainersSnapshot, HostInfo, Sample } from "./protocol";
import type { AgentRow, SeriesValues } from "./tables";
import { commitWindowMs, sampleWriter } from "./writer";

export interface SampleRow {
  agentId: number;
  time: number;
  values: SeriesValues;
}

export interface RollupRow {
  agentId: number;
  time: number;
  avg: SeriesValues;
  max: SeriesValues;
}

export type Resolution = "raw" | "minute" | "hour";

/** An agent's newest report, written to its row with the batch. `address`: where it came from (null: unknown). */
export interface LatestReport {
  host: HostInfo;
  interval: number;
  sample: Sample;
  seenAt: number;
  address: string | null;
  /** The containers, when the report listed them (else the row keeps what it had). */
  containers?: ContainersSnapshot;
}

/** Rollup rows per upsert statement (4 parameters a row: well under either engine's limit). */
const UPSERT_CHUNK = 1000;

/**
 * Database access for agents: rows, tokens, samples and rollups. No business rules here. Every query is awaited;
 * those that may run inside a transaction take its handle (`q`, the plain query builder by default).
 */
export function createAgentStore(db: Db) {
  const { orm, t } = db;
  const { agents, agentTokens, agentSamples, agentMinutely, agentHourly } = t;
  const rollupTable = (r: "minute" | "hour") => (r === "minute" ? agentMinutely : agentHourly);
  const tableOf = (r: Resolution) => (r === "raw" ? agentSamples : rollupTable(r));

  /** Rows of several agents in [from, to), by agent then time (one query, through the primary key). */
  async function rangeOf(agentIds: number[], resolution: Resolution, from: number, to: number, q: Orm = orm): Promise<RollupRow[]> {
    if (agentIds.length === 0) return [];
    const where = (table: { agentId: SQLiteColumn; time: SQLiteColumn }) =>
      and(agentIds.length === 1 ? eq(table.agentId, agentIds[0]!) : inArray(table.agentId, agentIds), gte(table.time, from), lt(table.time, to));
    if (resolution === "raw") {
      const rows = await q.select().from(agentSamples).where(where(agentSamples)).orderBy(asc(agentSamples.agentId), asc(agentSamples.time));
      return rows.map((r) => ({ agentId: r.agentId, time: r.time, avg: r.values, max: r.values }));
    }
    const table = rollupTable(resolution);
    return q.select().from(table).where(where(table)).orderBy(asc(table.agentId), asc(table.time));
  }

  /** Writes rollup rows (replacing those of the same agent and bucket), many per statement. */
  async function upsertRollups(resolution: "minute" | "hour", rows: RollupRow[], q: Orm = orm): Promise<void> {
    const table = rollupTable(resolution);
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      await q.insert(table).values(rows.slice(i, i + UPSERT_CHUNK))
        .onConflictDoUpdate({ target: [table.agentId, table.time], set: { avg: sql`excluded.avg`, max: sql`excluded.max` } });
    }
  }

  return {
    /** Runs `fn` in one transaction (db.tx): await only this store's calls, passing them `q`. */
    tx: <T>(fn: (q: Orm) => Promise<T>) => db.tx(fn),

    all: (): Promise<AgentRow[]> => orm.select().from(agents).orderBy(asc(agents.id)),
    byId: (id: number) => first(orm.select().from(agents).where(eq(agents.id, id))),
    /** The containers an agent's row holds (written with its reports' batches). */
    containers: async (id: number) => (await first(orm.select({ containers: agents.containers }).from(agents).where(eq(agents.id, id))))?.containers ?? null,

    async createToken(tokenHash: string, createdBy: number, now: number, ttlMs: number) {
      const [row] = await orm.insert(agentTokens).values({ tokenHash, createdBy, createdAt: now, expiresAt: now + ttlMs }).returning();
      return row!;
    },

    /** Tokens not used and not expired, oldest first (never their hash). */
    pendingTokens: async (now: number) =>
      orm.select({ id: agentTokens.id, createdBy: agentTokens.createdBy, createdAt: agentTokens.createdAt, expiresAt: agentTokens.expiresAt })
        .from(agentTokens).where(and(isNull(agentTokens.usedAt), gt(agentTokens.expiresAt, now))).orderBy(asc(agentTokens.id)),

    /** Deletes an unused token; false when there is none. */
    async revokeToken(id: number): Promise<boolean> {
      const deleted = await orm.delete(agentTokens).where(and(eq(agentTokens.id, id), isNull(agentTokens.usedAt))).returning({ id: agentTokens.id });
      return deleted.length > 0;
    },

    /**
     * Spends a registration token and creates its agent in one transaction, so a token can never make two agents:
     * the token is claimed first by one conditional UPDATE (unused and unexpired), which two registrations cannot
     * both pass on either engine. Returns the reason when the token is unknown, used or expired. `replaces`: agents
     * to delete with it, if they still have never reported (the service's never-reported twins); `replaced`: the
     * ones it deleted.
     */
    register(
      tokenHash: string,
      credentialHash: string,
      name: string,
      host: HostInfo,
      now: number,
      replaces: number[] = [],
    ): Promise<{ agent: AgentRow; replaced: number[] } | "unknown" | "used" | "expired"> {
      return db.tx(async (tx) => {
        const claimed = await first(
          tx.update(agentTokens).set({ usedAt: now })
            .where(and(eq(agentTokens.tokenHash, tokenHash), isNull(agentTokens.usedAt), gt(agentTokens.expiresAt, now)))
            .returning({ id: agentTokens.id }),
        );
        if (!claimed) {
          const token = await first(tx.select({ usedAt: agentTokens.usedAt }).from(agentTokens).where(eq(agentTokens.tokenHash, tokenHash)));
          return !token ? "unknown" : token.usedAt !== null ? "used" : "expired";
        }
        const [agent] = await tx.insert(agents).values({
          name,
          credentialHash,
          hostname: host.hostname,
          ips: host.ips,
          os: host.os,
          kernel: host.kernel,
          arch: host.arch,
          agentVersion: host.agentVersion,
          uptime: host.uptime,
          createdAt: now,
          updatedAt: now,
        }).returning();
        await tx.update(agentTokens).set({ agentId: agent!.id }).where(eq(agentTokens.id, claimed.id));
        const replaced = replaces.length
          ? await tx.delete(agents).where(and(inArray(agents.id, replaces), isNull(agents.lastSeenAt))).returning({ id: agents.id })
          : [];
        return { agent: agent!, replaced: replaced.map((r) => r.id).sort((a, b) => a - b) };
      });
    },

    rename: (id: number, name: string, location?: string | null) =>
      first(orm.update(agents).set({ name, ...(location !== undefined ? { location } : {}), updatedAt: Date.now() }).where(eq(agents.id, id)).returning()),

    /** Deletes the agent, its credential with it, and (cascade) its samples. */
    async remove(id: number): Promise<boolean> {
      return (await orm.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id })).length > 0;
    },

    /**
     * Writes samples and each agent's newest facts in one transaction, batched (server/agents/writer.ts: the one
     * place the engines differ). Rows of agents deleted meanwhile are skipped.
     */
    writeSamples: sampleWriter(db),
    /** How long a report's write waits for others to share its commit (server/agents/writer.ts). */
    commitWindowMs: commitWindowMs(db),

    /** Rows of one agent in [from, to), oldest first, at a resolution. */
    range: (agentId: number, resolution: Resolution, from: number, to: number, q: Orm = orm) => rangeOf([agentId], resolution, from, to, q),
    rangeOf,
    upsertRollups,
    upsertRollup: (resolution: "minute" | "hour", row: RollupRow, q: Orm = orm) => upsertRollups(resolution, [row], q),

    /** The newest rollup bucket of any agent: where a catch-up after downtime starts. */
    async newestRollup(resolution: "minute" | "hour"): Promise<number | null> {
      const table = rollupTable(resolution);
      const row = await first(orm.select({ t: sql<number | null>`max(${table.time})`.mapWith(Number) }).from(table));
      return row?.t ?? null;
    },

    /** Deletes the agents' rows older than `before` through the primary key (no full scans). */
    async prune(agentIds: number[], resolution: Resolution, before: number, q: Orm = orm): Promise<void> {
      if (agentIds.length === 0) return;
      const table = tableOf(resolution);
      await q.delete(table).where(and(inArray(table.agentId, agentIds), lt(table.time, before)));
    },

    pruneTokens: async (before: number) => void (await orm.delete(agentTokens).where(lt(agentTokens.expiresAt, before))),
  };
}

export type AgentStore = ReturnType<typeof createAgentStore>;
