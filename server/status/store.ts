// The status page configuration: one row (id 1) and the selected monitors and agents in page order.
import { asc, eq } from "drizzle-orm";
import { first, type Db } from "../db/database";
import type { Announcement, StatusPageConfigInput } from "./public";

const PAGE_ID = 1;

/** The configuration as stored (the public URL is added by the route, which knows the request). */
export interface StoredConfig {
  title: string;
  description: string;
  monitorIds: number[];
  agentIds: number[];
  announcement: Announcement | null;
  updatedAt: number | null;
}

export function createStatusStore(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { statusPage, statusPageAgents, statusPageMonitors } = db.t;
  return {
    async get(): Promise<StoredConfig> {
      const row = await first(orm.select().from(statusPage).where(eq(statusPage.id, PAGE_ID)));
      const monitorIds = (await orm.select().from(statusPageMonitors).orderBy(asc(statusPageMonitors.position))).map((r) => r.monitorId);
      const agentIds = (await orm.select().from(statusPageAgents).orderBy(asc(statusPageAgents.position))).map((r) => r.agentId);
      const announcement =
        row?.announcementSeverity && row.announcementText
          ? { severity: row.announcementSeverity, text: row.announcementText, updatedAt: row.announcementAt ?? row.updatedAt }
          : null;
      return { title: row?.title ?? "", description: row?.description ?? "", monitorIds, agentIds, announcement, updatedAt: row?.updatedAt ?? null };
    },

    /** Replaces the configuration (ids already checked to exist, without duplicates). */
    async save(input: StatusPageConfigInput): Promise<StoredConfig> {
      const at = now();
      await db.tx(async (tx) => {
        const before = await first(tx.select().from(statusPage).where(eq(statusPage.id, PAGE_ID)));
        const a = input.announcement;
        // An unchanged announcement keeps its time: readers see when it was posted, not when the title was edited.
        const sameAnnouncement = a !== null && before?.announcementSeverity === a.severity && before.announcementText === a.text;
        const values = {
          title: input.title,
          description: input.description,
          announcementSeverity: a?.severity ?? null,
          announcementText: a?.text ?? null,
          announcementAt: a === null ? null : sameAnnouncement ? (before?.announcementAt ?? at) : at,
          updatedAt: at,
        };
        await tx.insert(statusPage).values({ id: PAGE_ID, ...values }).onConflictDoUpdate({ target: statusPage.id, set: values });
        await tx.delete(statusPageMonitors);
        await tx.delete(statusPageAgents);
        if (input.monitorIds.length) await tx.insert(statusPageMonitors).values(input.monitorIds.map((monitorId, position) => ({ monitorId, position })));
        if (input.agentIds.length) await tx.insert(statusPageAgents).values(input.agentIds.map((agentId, position) => ({ agentId, position })));
      }, { lock: "status.page" });
      return this.get();
    },
  };
}

export type StatusStore = ReturnType<typeof createStatusStore>;
