// The status page configuration: one row (id 1) and the selected monitors and agents in page order.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/open";
import type { Announcement, StatusPageConfigInput } from "./public";
import { statusPage, statusPageAgents, statusPageMonitors } from "./tables";

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
  return {
    get(): StoredConfig {
      const row = db.select().from(statusPage).where(eq(statusPage.id, PAGE_ID)).get();
      const monitorIds = db.select().from(statusPageMonitors).orderBy(asc(statusPageMonitors.position)).all().map((r) => r.monitorId);
      const agentIds = db.select().from(statusPageAgents).orderBy(asc(statusPageAgents.position)).all().map((r) => r.agentId);
      const announcement =
        row?.announcementSeverity && row.announcementText
          ? { severity: row.announcementSeverity, text: row.announcementText, updatedAt: row.announcementAt ?? row.updatedAt }
          : null;
      return { title: row?.title ?? "", description: row?.description ?? "", monitorIds, agentIds, announcement, updatedAt: row?.updatedAt ?? null };
    },

    /** Replaces the configuration (ids already checked to exist, without duplicates). */
    save(input: StatusPageConfigInput): StoredConfig {
      const at = now();
      db.transaction((tx) => {
        const before = tx.select().from(statusPage).where(eq(statusPage.id, PAGE_ID)).get();
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
        tx.insert(statusPage).values({ id: PAGE_ID, ...values }).onConflictDoUpdate({ target: statusPage.id, set: values }).run();
        tx.delete(statusPageMonitors).run();
        tx.delete(statusPageAgents).run();
        if (input.monitorIds.length) tx.insert(statusPageMonitors).values(input.monitorIds.map((monitorId, position) => ({ monitorId, position }))).run();
        if (input.agentIds.length) tx.insert(statusPageAgents).values(input.agentIds.map((agentId, position) => ({ agentId, position }))).run();
      });
      return this.get();
    },
  };
}

export type StatusStore = ReturnType<typeof createStatusStore>;
