// Kuma status pages → Vigil status pages: slug, title, description, published, domain, groups with their monitors
// (Vigil's named groups), and the pinned incident as the page's announcement (Kuma's incident is a banner on the
// page with a style, which is what Vigil's announcement is; Vigil's own incidents have a timeline Kuma's lack).
// A Vigil page with the same address that the import did not make is never touched: that Kuma page is skipped.
import { eq, max } from "drizzle-orm";
import { first, type Orm } from "../../db/database";
import {
  ANNOUNCEMENT_MAX,
  DEFAULT_STATUS_PAGE_ID,
  RESERVED_SLUGS,
  STATUS_DESCRIPTION_MAX,
  STATUS_GROUP_NAME_MAX,
  STATUS_GROUPS_MAX,
  STATUS_ITEMS_MAX,
  STATUS_SLUG_MAX,
  STATUS_TITLE_MAX,
  type AnnouncementSeverity,
} from "../../status/public";
import { note } from "./notes";
import type { ApplyContext, ImportLinks, KumaSection, KumaSource, Note, PlanItem } from "./section";
import { bool, fit, int, str } from "./section-helpers";

const KIND = "status-page";
type Tables = ApplyContext["db"]["t"];

/** Vigil's rule: lower-case letters, digits and dashes, not starting or ending with a dash. */
export function normaliseSlug(slug: string): string {
  return slug.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, STATUS_SLUG_MAX).replace(/-+$/, "");
}

/** Vigil's custom-domain rule (server/status/pages.ts). */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const SEVERITY: Record<string, AnnouncementSeverity> = { danger: "outage", warning: "warning" };
const byWeight = (a: Record<string, unknown>, b: Record<string, unknown>) => (int(a.weight) ?? 0) - (int(b.weight) ?? 0) || (int(a.id) ?? 0) - (int(b.id) ?? 0);

interface Page {
  sourceId: string;
  slug: string;
  title: string;
  description: string;
  visibility: "public" | "private";
  logo: string | null;
  customDomain: string | null;
  announcement: { severity: AnnouncementSeverity; text: string } | null;
  /** Groups of Kuma monitor ids, in page order. */
  groups: { name: string; kumaIds: string[] }[];
  notes: Note[];
}

function readPage(source: KumaSource, row: Record<string, unknown>): Page {
  const notes: Note[] = [];
  const sourceId = str(row.id);
  const raw = str(row.slug);
  const slug = normaliseSlug(raw);
  if (slug && slug !== raw) notes.push(note("statusPage.slugChanged", { slug }));
  const icon = str(row.icon).trim();
  const logo = /^https:\/\//i.test(icon) ? icon : null;
  if (icon && !logo && icon !== "/icon.svg") notes.push(note("statusPage.logo"));
  if (str(row.footer_text).trim()) notes.push(note("statusPage.footer"));
  if (str(row.custom_css).trim()) notes.push(note("statusPage.css"));
  if (bool(row.show_tags)) notes.push(note("statusPage.tags"));
  if (row.show_certificate_expiry !== undefined && bool(row.show_certificate_expiry)) notes.push(note("statusPage.certExpiry"));
  if (str(row.google_analytics_tag_id ?? row.analytics_id).trim() || str(row.analytics_script_url).trim()) notes.push(note("statusPage.analytics"));
  if (str(row.password).trim()) notes.push(note("statusPage.password"));
  const theme = str(row.theme);
  if (theme && theme !== "auto") notes.push(note("statusPage.theme", { theme }));

  const cname = source.rows("status_page_cname").find((r) => str(r.status_page_id) === sourceId);
  let customDomain = cname ? str(cname.domain).trim().toLowerCase() || null : null;
  if (customDomain && !HOST.test(customDomain)) {
    notes.push(note("statusPage.domainInvalid", { domain: customDomain }));
    customDomain = null;
  }

  // The incident Kuma shows: the pinned one (the newest, should there be several).
  const incidents = source.rows("incident").filter((r) => (!source.has("incident", "status_page_id") || str(r.status_page_id) === sourceId) && bool(r.pin));
  incidents.sort((a, b) => str(b.created_date).localeCompare(str(a.created_date)));
  let announcement: Page["announcement"] = null;
  const incident = incidents[0];
  if (incident) {
    const text = [str(incident.title).trim(), str(incident.content).trim()].filter(Boolean).join("\n\n");
    announcement = { severity: SEVERITY[str(incident.style)] ?? "info", text: fit(text, ANNOUNCEMENT_MAX, "incidentText", notes) };
    notes.push(note("statusPage.incident"));
  }

  const groups: Page["groups"] = [];
  const seen = new Set<string>();
  const kumaGroups = source.rows("group").filter((g) => str(g.status_page_id) === sourceId && bool(g.public ?? true)).sort(byWeight);
  const entries = source.rows("monitor_group");
  for (const g of kumaGroups) {
    const kumaIds: string[] = [];
    for (const e of entries.filter((e) => str(e.group_id) === str(g.id)).sort(byWeight)) {
      const id = str(e.monitor_id);
      if (seen.has(id)) {
        notes.push(note("statusPage.duplicateMonitor"));
        continue;
      }
      seen.add(id);
      kumaIds.push(id);
      if (bool(e.send_url) || str(e.custom_url).trim()) notes.push(note("statusPage.links"));
    }
    groups.push({ name: fit(str(g.name), STATUS_GROUP_NAME_MAX, "groupName", notes), kumaIds });
  }
  if (groups.length > STATUS_GROUPS_MAX) {
    notes.push(note("statusPage.groupsLimit", { max: STATUS_GROUPS_MAX }));
    groups.length = STATUS_GROUPS_MAX;
  }
  return {
    sourceId,
    slug,
    title: fit(str(row.title), STATUS_TITLE_MAX, "title", notes),
    description: fit(str(row.description), STATUS_DESCRIPTION_MAX, "description", notes),
    visibility: row.published === undefined || bool(row.published) ? "public" : "private",
    logo,
    customDomain,
    announcement,
    groups,
    // Said once each (several monitors may have links, say).
    notes: notes.filter((n, i) => notes.findIndex((m) => m.text === n.text) === i),
  };
}

/** The import's own page for this Kuma page (still there), and the page holding the slug. */
async function lookup(q: Orm, t: Tables, links: ImportLinks, page: Page) {
  const linked = links.target(KIND, page.sourceId);
  const own = linked === undefined ? undefined : await first(q.select().from(t.statusPage).where(eq(t.statusPage.id, linked)));
  const holder = page.slug ? await first(q.select({ id: t.statusPage.id }).from(t.statusPage).where(eq(t.statusPage.slug, page.slug))) : undefined;
  return { own, holder };
}

function skipReason(page: Page, found: Awaited<ReturnType<typeof lookup>>): Note | null {
  if (!page.slug) return note("statusPage.noSlug");
  if (RESERVED_SLUGS.includes(page.slug) || page.slug === "default") return note("statusPage.reservedSlug", { slug: page.slug });
  if (found.holder && found.holder.id !== found.own?.id) return note("statusPage.slugTaken", { slug: page.slug });
  return null;
}

export const statusPagesSection: KumaSection = {
  kind: KIND,

  async plan(source, { db, links }) {
    const items: PlanItem[] = [];
    // Two Kuma addresses may become one Vigil address ("Shop" and "shop"): the first keeps it.
    const claimed = new Set<string>();
    for (const row of source.rows("status_page")) {
      const page = readPage(source, row);
      const found = await lookup(db.orm, db.t, links, page);
      const reason = claimed.has(page.slug) ? note("statusPage.slugClaimed", { slug: page.slug }) : skipReason(page, found);
      if (!reason) claimed.add(page.slug);
      const monitors = page.groups.reduce((n, g) => n + g.kumaIds.length, 0);
      items.push({
        kind: KIND,
        sourceId: page.sourceId,
        name: str(row.slug),
        action: reason ? "skip" : found.own ? "update" : "create",
        notes: reason ? [reason] : [...page.notes, note("statusPage.summary", { groups: page.groups.length, monitors })],
      });
    }
    return items;
  },

  async apply(source, items, { tx, db, links, now }) {
    const t = db.t;
    const wanted = new Map(items.filter((i) => i.kind === KIND && i.action !== "skip").map((i) => [i.sourceId, i]));
    for (const row of source.rows("status_page")) {
      const item = wanted.get(str(row.id));
      if (!item) continue;
      const page = readPage(source, row);
      const found = await lookup(tx, t, links, page);
      const reason = skipReason(page, found);
      if (reason) throw new Error(`Kuma status page ${page.sourceId}: ${reason.text}`);

      let customDomain = page.customDomain;
      if (customDomain) {
        const taken = await first(tx.select({ id: t.statusPage.id }).from(t.statusPage).where(eq(t.statusPage.customDomain, customDomain)));
        if (taken && taken.id !== found.own?.id) {
          item.notes.push(note("statusPage.domainTaken", { domain: customDomain }));
          customDomain = null;
        }
      }
      const values = {
        slug: page.slug,
        title: page.title,
        description: page.description,
        logo: page.logo ?? found.own?.logo ?? null,
        customDomain,
        // A page the user protected with a password in Vigil stays protected.
        visibility: found.own?.visibility === "password" ? ("password" as const) : page.visibility,
        announcementSeverity: page.announcement?.severity ?? null,
        announcementText: page.announcement?.text ?? null,
        announcementAt: page.announcement ? (found.own?.announcementText === page.announcement.text ? (found.own.announcementAt ?? now) : now) : null,
        updatedAt: now,
      };
      let pageId: number;
      if (found.own) {
        pageId = found.own.id;
        await tx.update(t.statusPage).set(values).where(eq(t.statusPage.id, pageId));
      } else {
        // As the status store does: the default page (id 1) exists first, and ids are chosen here (see store.ts).
        const [top] = await tx.select({ id: max(t.statusPage.id) }).from(t.statusPage);
        if (!top?.id) await tx.insert(t.statusPage).values({ id: DEFAULT_STATUS_PAGE_ID, slug: "default", createdAt: now, updatedAt: now });
        pageId = Math.max(top?.id ?? 0, DEFAULT_STATUS_PAGE_ID) + 1;
        await tx.insert(t.statusPage).values({ id: pageId, ...values, createdAt: now });
      }
      links.link(KIND, page.sourceId, pageId);

      // The page's monitors are the Kuma page's: what the user added in Vigil is replaced, as on every re-import.
      await tx.delete(t.statusPageMonitors).where(eq(t.statusPageMonitors.pageId, pageId));
      const rows: (typeof t.statusPageMonitors.$inferInsert)[] = [];
      let missing = 0;
      for (const g of page.groups) {
        for (const kumaId of g.kumaIds) {
          const monitorId = links.target("monitor", kumaId);
          const exists = monitorId !== undefined && (await first(tx.select({ id: t.monitors.id }).from(t.monitors).where(eq(t.monitors.id, monitorId))));
          if (!exists || rows.length >= STATUS_ITEMS_MAX || rows.some((r) => r.monitorId === monitorId)) missing++;
          else rows.push({ pageId, monitorId: monitorId!, position: rows.length, groupName: g.name });
        }
      }
      if (rows.length) await tx.insert(t.statusPageMonitors).values(rows);
      if (missing) item.notes.push(note("statusPage.monitorsMissing", { count: missing }));
      const empty = page.groups.filter((g) => !rows.some((r) => r.groupName === g.name));
      if (empty.length) item.notes.push(note("statusPage.emptyGroups", { groups: empty.map((g) => `"${g.name}"`).join(", ") }));
    }
  },
};
