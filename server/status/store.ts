// Status pages in the database: a row per page (id 1 is the default page, at /status), and each page's monitors and
// agents in page order, in named groups.
import { asc, eq, max } from "drizzle-orm";
import { first, isUniqueViolation, type Db, type Orm } from "../db/database";
import { conflict } from "../http/errors";
import { DEFAULT_STATUS_PAGE_ID, type Announcement, type StatusPageConfigInput, type StatusPageGroup, type StatusVisibility } from "./public";

export const DEFAULT_PAGE_ID = DEFAULT_STATUS_PAGE_ID;

/** A page as stored (routes add its URLs; the password's hash stays on the server). */
export interface StoredPage {
  id: number;
  slug: string;
  title: string;
  description: string;
  logo: string | null;
  customDomain: string | null;
  visibility: StatusVisibility;
  passwordHash: string | null;
  passwordVersion: number;
  /** The secret of the feed link of a page that is not public, or null (see tables.ts). */
  feedKey: string | null;
  announcement: Announcement | null;
  showLocations: boolean;
  /** In page order; "" is the unnamed group. */
  groups: StatusPageGroup[];
  /** Every monitor and agent of the page, in page order. */
  monitorIds: number[];
  agentIds: number[];
  createdAt: number;
  updatedAt: number | null;
}

/** The default page's old shape (GET/PUT /api/status/config). */
export type StoredConfig = Pick<StoredPage, "title" | "description" | "monitorIds" | "agentIds" | "announcement" | "updatedAt">;

/** What a save writes: everything but the password, which has its own column and version. */
export interface PageValues {
  slug: string;
  title: string;
  description: string;
  logo: string | null;
  customDomain: string | null;
  visibility: StatusVisibility;
  /** undefined: keep; null: none; text: a new hash (ends every unlock token). */
  passwordHash?: string | null;
  announcement: { severity: Announcement["severity"]; text: string } | null;
  showLocations: boolean;
  groups: StatusPageGroup[];
}

export const slugTaken = () => conflict("STATUS_PAGE_SLUG_TAKEN", "Another status page has this address");
export const domainTaken = () => conflict("STATUS_PAGE_DOMAIN_TAKEN", "Another status page has this domain");

export function createStatusStore(db: Db, now: () => number = Date.now) {
  const { orm } = db;
  const { statusPage, statusPageAgents, statusPageMonitors } = db.t;

  const emptyDefault = (): StoredPage => ({
    id: DEFAULT_PAGE_ID,
    slug: "default",
    title: "",
    description: "",
    logo: null,
    customDomain: null,
    visibility: "public",
    passwordHash: null,
    passwordVersion: 0,
    feedKey: null,
    announcement: null,
    showLocations: false,
    groups: [],
    monitorIds: [],
    agentIds: [],
    createdAt: 0,
    updatedAt: null,
  });

  /** Every page with its items (one query per table), the default page first even before it was saved. */
  async function all(): Promise<StoredPage[]> {
    const rows = await orm.select().from(statusPage).orderBy(asc(statusPage.id));
    const monitors = await orm.select().from(statusPageMonitors).orderBy(asc(statusPageMonitors.pageId), asc(statusPageMonitors.position));
    const agents = await orm.select().from(statusPageAgents).orderBy(asc(statusPageAgents.pageId), asc(statusPageAgents.position));
    const pages = new Map<number, StoredPage>();
    for (const r of rows) {
      pages.set(r.id, {
        id: r.id,
        slug: r.slug,
        title: r.title,
        description: r.description,
        logo: r.logo,
        customDomain: r.customDomain,
        visibility: r.visibility,
        passwordHash: r.passwordHash,
        passwordVersion: r.passwordVersion,
        feedKey: r.feedKey,
        announcement: r.announcementSeverity && r.announcementText ? { severity: r.announcementSeverity, text: r.announcementText, updatedAt: r.announcementAt ?? r.updatedAt } : null,
        showLocations: r.showLocations,
        groups: [],
        monitorIds: [],
        agentIds: [],
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      });
    }
    if (!pages.has(DEFAULT_PAGE_ID)) pages.set(DEFAULT_PAGE_ID, emptyDefault());
    // Items of each page merged in position order, grouped by name in the order groups first appear.
    const items = [
      ...monitors.map((m) => ({ pageId: m.pageId, position: m.position, group: m.groupName, type: "monitor" as const, id: m.monitorId })),
      ...agents.map((a) => ({ pageId: a.pageId, position: a.position, group: a.groupName, type: "agent" as const, id: a.agentId })),
    ].sort((a, b) => a.pageId - b.pageId || a.position - b.position || (a.type === b.type ? 0 : a.type === "monitor" ? -1 : 1));
    for (const item of items) {
      const page = pages.get(item.pageId);
      if (!page) continue;
      let group = page.groups.find((g) => g.name === item.group);
      if (!group) page.groups.push((group = { name: item.group, items: [] }));
      group.items.push({ type: item.type, id: item.id });
      (item.type === "monitor" ? page.monitorIds : page.agentIds).push(item.id);
    }
    return [...pages.values()].sort((a, b) => a.id - b.id);
  }

  async function writeItems(tx: Orm, pageId: number, groups: StatusPageGroup[]) {
    await tx.delete(statusPageMonitors).where(eq(statusPageMonitors.pageId, pageId));
    await tx.delete(statusPageAgents).where(eq(statusPageAgents.pageId, pageId));
    let position = 0;
    const monitors: (typeof statusPageMonitors.$inferInsert)[] = [];
    const agents: (typeof statusPageAgents.$inferInsert)[] = [];
    for (const g of groups) {
      for (const item of g.items) {
        if (item.type === "monitor") monitors.push({ pageId, monitorId: item.id, position: position++, groupName: g.name });
        else agents.push({ pageId, agentId: item.id, position: position++, groupName: g.name });
      }
    }
    if (monitors.length) await tx.insert(statusPageMonitors).values(monitors);
    if (agents.length) await tx.insert(statusPageAgents).values(agents);
  }

  /** The row's columns for a save; an unchanged announcement keeps its time (readers see when it was posted). */
  function columns(v: PageValues, before: { announcementSeverity: string | null; announcementText: string | null; announcementAt: number | null } | undefined, at: number) {
    const a = v.announcement;
    const same = a !== null && before?.announcementSeverity === a.severity && before.announcementText === a.text;
    return {
      slug: v.slug,
      title: v.title,
      description: v.description,
      logo: v.logo,
      customDomain: v.customDomain,
      showLocations: v.showLocations,
      visibility: v.visibility,
      // A public page's feeds need no key: an old link must not come back if the page is locked again.
      ...(v.visibility === "public" ? { feedKey: null } : {}),
      announcementSeverity: a?.severity ?? null,
      announcementText: a?.text ?? null,
      announcementAt: a === null ? null : same ? (before?.announcementAt ?? at) : at,
      updatedAt: at,
    };
  }

  /** Runs a save, turning a taken slug or domain into a 409. */
  async function saving<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      // PostgreSQL names the index, SQLite the column (or the index of an expression).
      if (isUniqueViolation(e, "status_page_slug") || isUniqueViolation(e, "status_page.slug")) throw slugTaken();
      if (isUniqueViolation(e, "status_page_domain")) throw domainTaken();
      throw e;
    }
  }

  const store = {
    all,
    async get(id: number): Promise<StoredPage | undefined> {
      return (await all()).find((p) => p.id === id);
    },

    /** Creates a page (the default one is made first when it was never saved, so it keeps id 1). */
    async create(v: PageValues): Promise<number> {
      const at = now();
      return saving(() =>
        db.tx(
          async (tx) => {
            const [top] = await tx.select({ id: max(statusPage.id) }).from(statusPage);
            if (!top?.id) await tx.insert(statusPage).values({ id: DEFAULT_PAGE_ID, slug: "default", createdAt: at, updatedAt: at });
            // Ids chosen here, not by the engine: the default page's explicit id 1 leaves PostgreSQL's sequence behind.
            const id = Math.max(top?.id ?? 0, DEFAULT_PAGE_ID) + 1;
            await tx.insert(statusPage).values({ id, ...columns(v, undefined, at), passwordHash: v.passwordHash ?? null, createdAt: at });
            await writeItems(tx, id, v.groups);
            return id;
          },
          { lock: "status.page" },
        ),
      );
    },

    /** Saves a page (the default one is created by its first save); false when there is no such page. */
    async save(id: number, v: PageValues): Promise<boolean> {
      const at = now();
      return saving(() =>
        db.tx(
          async (tx) => {
            const before = await first(tx.select().from(statusPage).where(eq(statusPage.id, id)));
            if (!before && id !== DEFAULT_PAGE_ID) return false;
            const values = columns(v, before, at);
            const password = v.passwordHash === undefined ? {} : { passwordHash: v.passwordHash, passwordVersion: (before?.passwordVersion ?? 0) + 1 };
            if (before) await tx.update(statusPage).set({ ...values, ...password }).where(eq(statusPage.id, id));
            else await tx.insert(statusPage).values({ id, ...values, ...password, createdAt: at });
            await writeItems(tx, id, v.groups);
            return true;
          },
          { lock: "status.page" },
        ),
      );
    },

    /** Gives the page a new feed key (or none), which ends the old link; false when there is no such page. */
    async setFeedKey(id: number, key: string | null): Promise<boolean> {
      return db.tx(
        async (tx) => {
          const at = now();
          const before = await first(tx.select({ id: statusPage.id }).from(statusPage).where(eq(statusPage.id, id)));
          if (!before && id !== DEFAULT_PAGE_ID) return false;
          if (before) await tx.update(statusPage).set({ feedKey: key }).where(eq(statusPage.id, id));
          else await tx.insert(statusPage).values({ id, slug: "default", feedKey: key, createdAt: at, updatedAt: at });
          return true;
        },
        { lock: "status.page" },
      );
    },

    async remove(id: number): Promise<boolean> {
      if (id === DEFAULT_PAGE_ID) throw conflict("STATUS_PAGE_DEFAULT", "The default status page cannot be deleted");
      return (await orm.delete(statusPage).where(eq(statusPage.id, id)).returning({ id: statusPage.id })).length > 0;
    },

    /** The default page in the shape of /api/status/config. */
    async config(): Promise<StoredConfig> {
      const p = (await all())[0]!;
      return { title: p.title, description: p.description, monitorIds: p.monitorIds, agentIds: p.agentIds, announcement: p.announcement, updatedAt: p.updatedAt };
    },

    /** /api/status/config's save: the default page's texts and items (one unnamed group), nothing else changed. */
    async saveConfig(input: StatusPageConfigInput): Promise<StoredConfig> {
      const p = (await all())[0]!;
      const items = [...input.monitorIds.map((id) => ({ type: "monitor" as const, id })), ...input.agentIds.map((id) => ({ type: "agent" as const, id }))];
      await store.save(DEFAULT_PAGE_ID, {
        slug: p.slug,
        title: input.title,
        description: input.description,
        logo: p.logo,
        customDomain: p.customDomain,
        visibility: p.visibility,
        announcement: input.announcement,
        showLocations: p.showLocations,
        groups: items.length ? [{ name: "", items }] : [],
      });
      return store.config();
    },
  };
  return store;
}

export type StatusStore = ReturnType<typeof createStatusStore>;
