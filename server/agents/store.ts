import { and, asc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/open";
import type { HostInfo, Sample } from "./protocol";
import { agentHourly, agentMinutely, agentSamples, agents, agentTokens, type AgentRow, type SeriesValues } from "./tables";

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

/** Database access for agents: rows, tokens, samples and rollups. No business rules here. */
export function createAgentStore(db: Db) {
  const rollupTable = (r: "minute" | "hour") => (r === "minute" ? agentMinutely : agentHourly);

  return {
    all: (): AgentRow[] => db.select().from(agents).orderBy(asc(agents.id)).all(),
    byId: (id: number) => db.select().from(agents).where(eq(agents.id, id)).get(),

    createToken(tokenHash: string, createdBy: number, now: number, ttlMs: number) {
      return db.insert(agentTokens).values({ tokenHash, createdBy, createdAt: now, expiresAt: now + ttlMs }).returning().get();
    },

    /**
     * Spends a registration token and creates its agent in one transaction, so a token can never make two agents.
     * Returns the reason when the token is unknown, used or expired.
     */
    register(tokenHash: string, credentialHash: string, name: string, host: HostInfo, now: number): AgentRow | "unknown" | "used" | "expired" {
      return db.transaction((tx) => {
        const token = tx.select().from(agentTokens).where(eq(agentTokens.tokenHash, tokenHash)).get();
        if (!token) return "unknown";
        if (token.usedAt !== null) return "used";
        if (token.expiresAt <= now) return "expired";
        const agent = tx.insert(agents).values({
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
        }).returning().get();
        tx.update(agentTokens).set({ usedAt: now, agentId: agent.id })
          .where(and(eq(agentTokens.id, token.id), isNull(agentTokens.usedAt))).run();
        return agent;
      }, { behavior: "immediate" });
    },

    rename: (id: number, name: string) =>
      db.update(agents).set({ name, updatedAt: Date.now() }).where(eq(agents.id, id)).returning().get(),

    /** Deletes the agent, its credential with it, and (cascade) its samples. */
    remove: (id: number) => db.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id }).get() !== undefined,

    /** Writes samples and each agent's newest facts. Call inside a transaction (the batch writer does). */
    writeSamples(rows: SampleRow[], latest: Map<number, { host: HostInfo; interval: number; sample: Sample; seenAt: number }>) {
      for (const row of rows) {
        db.insert(agentSamples).values(row).onConflictDoUpdate({
          target: [agentSamples.agentId, agentSamples.time],
          set: { values: row.values },
        }).run();
      }
      for (const [id, l] of latest) {
        db.update(agents).set({
          hostname: l.host.hostname,
          ips: l.host.ips,
          os: l.host.os,
          kernel: l.host.kernel,
          arch: l.host.arch,
          agentVersion: l.host.agentVersion,
          uptime: l.host.uptime,
          interval: l.interval,
          latest: l.sample,
          lastSeenAt: l.seenAt,
        }).where(eq(agents.id, id)).run();
      }
    },

    /** Rows of one agent in [from, to), oldest first, at a resolution. */
    range(agentId: number, resolution: Resolution, from: number, to: number): RollupRow[] {
      if (resolution === "raw") {
        return db.select().from(agentSamples)
          .where(and(eq(agentSamples.agentId, agentId), gte(agentSamples.time, from), lt(agentSamples.time, to)))
          .orderBy(asc(agentSamples.time)).all()
          .map((r) => ({ agentId: r.agentId, time: r.time, avg: r.values, max: r.values }));
      }
      const table = rollupTable(resolution);
      return db.select().from(table)
        .where(and(eq(table.agentId, agentId), gte(table.time, from), lt(table.time, to)))
        .orderBy(asc(table.time)).all();
    },

    upsertRollup(resolution: "minute" | "hour", row: RollupRow) {
      const table = rollupTable(resolution);
      db.insert(table).values(row).onConflictDoUpdate({ target: [table.agentId, table.time], set: { avg: row.avg, max: row.max } }).run();
    },

    /** The newest rollup bucket of any agent: where a catch-up after downtime starts. */
    newestRollup(resolution: "minute" | "hour"): number | null {
      const table = rollupTable(resolution);
      return db.select({ t: sql<number | null>`max(${table.time})` }).from(table).get()?.t ?? null;
    },

    /** Deletes one agent's rows older than `before` through the primary key (no full scans). */
    prune(agentId: number, resolution: Resolution, before: number): void {
      const table = resolution === "raw" ? agentSamples : rollupTable(resolution);
      db.delete(table).where(and(eq(table.agentId, agentId), lt(table.time, before))).run();
    },

    pruneTokens: (before: number) => void db.delete(agentTokens).where(lt(agentTokens.expiresAt, before)).run(),
  };
}

export type AgentStore = ReturnType<typeof createAgentStore>;
