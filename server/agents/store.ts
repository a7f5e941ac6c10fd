import { and, asc, eq, gt, gte, inArray, isNull, lt, sql } from "drizzle-orm";
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
/** An agent's newest report, written to its row with the batch. `address`: where it came from (null: unknown). */
export interface LatestReport {
  host: HostInfo;
  interval: number;
  sample: Sample;
  seenAt: number;
  address: string | null;
}

export function createAgentStore(db: Db) {
  const rollupTable = (r: "minute" | "hour") => (r === "minute" ? agentMinutely : agentHourly);
  const p = <T extends string>(name: T) => sql.placeholder(name);

  // The paths that run for every sample or every agent each minute are prepared once.
  const rangeOf = (table: typeof agentMinutely | typeof agentHourly) =>
    db.select().from(table)
      .where(and(eq(table.agentId, p("agentId")), gte(table.time, p("from")), lt(table.time, p("to"))))
      .orderBy(asc(table.time)).prepare();
  const upsertOf = (table: typeof agentMinutely | typeof agentHourly) =>
    db.insert(table)
      .values({ agentId: p("agentId"), time: p("time"), avg: p("avg"), max: p("max") })
      .onConflictDoUpdate({ target: [table.agentId, table.time], set: { avg: sql`excluded.avg`, max: sql`excluded.max` } })
      .prepare();
  const pruneOf = (table: typeof agentSamples | typeof agentMinutely | typeof agentHourly) =>
    db.delete(table).where(and(eq(table.agentId, p("agentId")), lt(table.time, p("before")))).prepare();
  const q = {
    insertSample: db.insert(agentSamples)
      .values({ agentId: p("agentId"), time: p("time"), values: p("values") })
      .onConflictDoUpdate({ target: [agentSamples.agentId, agentSamples.time], set: { values: sql`excluded.${sql.identifier("values")}` } })
      .prepare(),
    updateLatest: db.update(agents).set({
      hostname: sql`${p("hostname")}`,
      ips: sql`${p("ips")}`,
      os: sql`${p("os")}`,
      kernel: sql`${p("kernel")}`,
      arch: sql`${p("arch")}`,
      agentVersion: sql`${p("agentVersion")}`,
      uptime: sql`${p("uptime")}`,
      interval: sql`${p("interval")}`,
      latest: sql`${p("latest")}`,
      lastSeenAt: sql`${p("seenAt")}`,
      lastAddress: sql`${p("address")}`,
    }).where(eq(agents.id, p("id"))).prepare(),
    rawRange: db.select().from(agentSamples)
      .where(and(eq(agentSamples.agentId, p("agentId")), gte(agentSamples.time, p("from")), lt(agentSamples.time, p("to"))))
      .orderBy(asc(agentSamples.time)).prepare(),
    minuteRange: rangeOf(agentMinutely),
    hourRange: rangeOf(agentHourly),
    upsertMinute: upsertOf(agentMinutely),
    upsertHour: upsertOf(agentHourly),
    prune: { raw: pruneOf(agentSamples), minute: pruneOf(agentMinutely), hour: pruneOf(agentHourly) },
  };

  return {
    all: (): AgentRow[] => db.select().from(agents).orderBy(asc(agents.id)).all(),
    byId: (id: number) => db.select().from(agents).where(eq(agents.id, id)).get(),

    createToken(tokenHash: string, createdBy: number, now: number, ttlMs: number) {
      return db.insert(agentTokens).values({ tokenHash, createdBy, createdAt: now, expiresAt: now + ttlMs }).returning().get();
    },

    /** Tokens not used and not expired, oldest first (never their hash). */
    pendingTokens: (now: number) =>
      db.select({ id: agentTokens.id, createdBy: agentTokens.createdBy, createdAt: agentTokens.createdAt, expiresAt: agentTokens.expiresAt })
        .from(agentTokens).where(and(isNull(agentTokens.usedAt), gt(agentTokens.expiresAt, now))).orderBy(asc(agentTokens.id)).all(),

    /** Deletes an unused token; false when there is none. */
    revokeToken: (id: number) =>
      db.delete(agentTokens).where(and(eq(agentTokens.id, id), isNull(agentTokens.usedAt))).returning({ id: agentTokens.id }).all().length > 0,

    /**
     * Spends a registration token and creates its agent in one transaction, so a token can never make two agents.
     * Returns the reason when the token is unknown, used or expired. `replaces`: agents to delete with it, if they
     * still have never reported (the service's never-reported twins).
     */
    register(tokenHash: string, credentialHash: string, name: string, host: HostInfo, now: number, replaces: number[] = []): AgentRow | "unknown" | "used" | "expired" {
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
        if (replaces.length) tx.delete(agents).where(and(inArray(agents.id, replaces), isNull(agents.lastSeenAt))).run();
        return agent;
      }, { behavior: "immediate" });
    },

    rename: (id: number, name: string) =>
      db.update(agents).set({ name, updatedAt: Date.now() }).where(eq(agents.id, id)).returning().get(),

    /** Deletes the agent, its credential with it, and (cascade) its samples. */
    remove: (id: number) => db.delete(agents).where(eq(agents.id, id)).returning({ id: agents.id }).get() !== undefined,

    /** Writes samples and each agent's newest facts. Call inside a transaction (the batch writer does). */
    writeSamples(rows: SampleRow[], latest: Map<number, LatestReport>) {
      // drizzle encodes the JSON column for the placeholder.
      for (const row of rows) q.insertSample.run({ agentId: row.agentId, time: row.time, values: row.values });
      for (const [id, l] of latest) {
        q.updateLatest.run({
          id,
          hostname: l.host.hostname,
          ips: JSON.stringify(l.host.ips),
          os: l.host.os,
          kernel: l.host.kernel,
          arch: l.host.arch,
          agentVersion: l.host.agentVersion,
          uptime: l.host.uptime,
          interval: l.interval,
          latest: JSON.stringify(l.sample),
          seenAt: l.seenAt,
          address: l.address,
        });
      }
    },

    /** Rows of one agent in [from, to), oldest first, at a resolution. */
    range(agentId: number, resolution: Resolution, from: number, to: number): RollupRow[] {
      const args = { agentId, from, to };
      if (resolution === "raw") return q.rawRange.all(args).map((r) => ({ agentId: r.agentId, time: r.time, avg: r.values, max: r.values }));
      return (resolution === "minute" ? q.minuteRange : q.hourRange).all(args);
    },

    upsertRollup(resolution: "minute" | "hour", row: RollupRow) {
      (resolution === "minute" ? q.upsertMinute : q.upsertHour).run({
        agentId: row.agentId,
        time: row.time,
        avg: row.avg,
        max: row.max,
      });
    },

    /** The newest rollup bucket of any agent: where a catch-up after downtime starts. */
    newestRollup(resolution: "minute" | "hour"): number | null {
      const table = rollupTable(resolution);
      return db.select({ t: sql<number | null>`max(${table.time})` }).from(table).get()?.t ?? null;
    },

    /** Deletes one agent's rows older than `before` through the primary key (no full scans). */
    prune(agentId: number, resolution: Resolution, before: number): void {
      q.prune[resolution].run({ agentId, before });
    },

    pruneTokens: (before: number) => void db.delete(agentTokens).where(lt(agentTokens.expiresAt, before)).run(),
  };
}

export type AgentStore = ReturnType<typeof createAgentStore>;
