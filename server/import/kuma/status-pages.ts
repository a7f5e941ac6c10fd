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
import type { ApplyContext, ImportLinks, KumaSection, KumaSource, PlanItem } from "./section";
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
  notes: string[];
}

function readPage(source: KumaSource, row: Record<string, unknown>): Page {
  const notes: string[] = [];
  const sourceId = str(row.id);
  const raw = str(row.slug);
  const slug = normaliseSlug(raw);
  if (slug && slug !== raw) notes.push(`Its address becomes /status/${slug} (Vigil's addresses are lower-case letters, digits and dashes).`);
  const icon = str(row.icon).trim();
  const logo = /^https:\/\//i.test(icon) ? icon : null;
  if (icon && !logo && icon !== "/icon.svg") notes.push("Its uploaded logo does not come across (it is a file in Kuma's data directory): upload it in Vigil.");
  if (str(row.footer_text).trim()) notes.push("The footer text does not come across: Vigil's pages have no footer.");
  if (str(row.custom_css).trim()) notes.push("The custom CSS does not come across: Vigil's pages have no custom CSS.");
  if (bool(row.show_tags)) notes.push("Tags are not shown on Vigil's status pages.");
  if (row.show_certificate_expiry !== undefined && bool(row.show_certificate_expiry)) notes.push("Certificate expiry is not shown on Vigil's status pages.");
  if (str(row.google_analytics_tag_id ?? row.analytics_id).trim() || str(row.analytics_script_url).trim()) notes.push("The analytics setting does not come across.");
  if (str(row.password).trim()) notes.push("Its password does not come across: set one in Vigil (visibility \"password\").");
  const theme = str(row.theme);
  if (theme && theme !== "auto") notes.push(`The "${theme}" theme does not come across: Vigil's status pages have one look.`);

  const cname = source.rows("status_page_cname").find((r) => str(r.status_page_id) === sourceId);
  let customDomain = cname ? str(cname.domain).trim().toLowerCase() || null : null;
  if (customDomain && !HOST.test(customDomain)) {
    notes.push(`Its domain ${customDomain} is not a host name Vigil serves pages on (it needs a dot and a top-level domain).`);
    customDomain = null;
  }

  // The incident Kuma shows: the pinned one (the newest, should there be several).
  const incidents = source.rows("incident").filter((r) => (!source.has("incident", "status_page_id") || str(r.status_page_id) === sourceId) && bool(r.pin));
  incidents.sort((a, b) => str(b.created_date).localeCompare(str(a.created_date)));
  let announcement: Page["announcement"] = null;
  const incident = incidents[0];
  if (incident) {
    const text = [str(incident.title).trim(), str(incident.content).trim()].filter(Boolean).join("\n\n");
    announcement = { severity: SEVERITY[str(incident.style)] ?? "info", text: fit(text, ANNOUNCEMENT_MAX, "incident's text", notes) };
    notes.push("Its incident becomes the page's announcement.");
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
        notes.push(`A monitor listed in two groups is shown once, in the first (Vigil shows each monitor once per page).`);
        continue;
      }
      seen.add(id);
      kumaIds.push(id);
      if (bool(e.send_url) || str(e.custom_url).trim()) notes.push("Links from monitors to their address do not come across.");
    }
    groups.push({ name: fit(str(g.name), STATUS_GROUP_NAME_MAX, "group name", notes), kumaIds });
  }
  if (groups.length > STATUS_GROUPS_MAX) {
    notes.push(`Only the first ${STATUS_GROUPS_MAX} groups come across (Vigil's limit).`);
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
    notes: [...new Set(notes)],
  };
}

/** The import's own page for this Kuma page (still there), and the page holding the slug. */
async function lookup(q: Orm, t: Tables, links: ImportLinks, page: Page) {
  const linked = links.target(KIND, page.sourceId);
  const own = linked === undefined ? undefined : await first(q.select().from(t.statusPage).where(eq(t.statusPage.id, linked)));
  const holder = page.slug ? await first(q.select({ id: t.statusPage.id }).from(t.statusPage).where(eq(t.statusPage.slug, page.slug))) : undefined;
  return { own, holder };
}

function skipReason(page: Page, found: Awaited<ReturnType<typeof lookup>>): string | null {
  if (!page.slug) return "Its address has no letters or digits, which a Vigil address needs.";
  if (RESERVED_SLUGS.includes(page.slug) || page.slug === "default") return `Its address "${page.slug}" is one Vigil keeps for itself.`;
  if (found.holder && found.holder.id !== found.own?.id) return `Vigil already has a status page at /status/${page.slug} that the import did not make; it is left as it is (rename one of them and import again).`;
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
      const reason = claimed.has(page.slug) ? `Another Kuma page already comes across at /status/${page.slug}.` : skipReason(page, found);
      if (!reason) claimed.add(page.slug);
      const monitors = page.groups.reduce((n, g) => n + g.kumaIds.length, 0);
      items.push({
        kind: KIND,
        sourceId: page.sourceId,
        name: str(row.slug),
        action: reason ? "skip" : found.own ? "update" : "create",
        notes: reason ? [reason] : [...page.notes, `${page.groups.length} group(s), ${monitors} monitor(s); monitors that do not come across are left off.`],
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
      if (reason) throw new Error(`Kuma status page ${page.sourceId}: ${reason}`);

      let customDomain = page.customDomain;
      if (customDomain) {
        const taken = await first(tx.select({ id: t.statusPage.id }).from(t.statusPage).where(eq(t.statusPage.customDomain, customDomain)));
        if (taken && taken.id !== found.own?.id) {
          item.notes.push(`Its domain ${customDomain} is already another Vigil page's and is left off.`);
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
      if (missing) item.notes.push(`${missing} of its monitors did not come across and are left off the page.`);
      const empty = page.groups.filter((g) => !rows.some((r) => r.groupName === g.name));
      if (empty.length) item.notes.push(`Group(s) ${empty.map((g) => `"${g.name}"`).join(", ")} have no monitors in Vigil and are not shown (Vigil shows a group by its monitors).`);
    }
  },
};
