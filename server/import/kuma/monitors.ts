// The monitors section of the Kuma import: every Kuma monitor of a type Vigil checks, validated by the API's own rules
// (resolveFields and the type's validate, under the instance's address policy); what fails, or is of a type Vigil
// lacks, is a skip item saying why. Groups first come across flat, then every monitor gets its parent, so a child
// may come before its group in Kuma's order.
import { laterCheckTypes } from "../../monitors/types/later-types";
import { eq, inArray } from "drizzle-orm";
import type { Orm } from "../../db/database";
import type { Tables } from "../../db/pg-schema";
import { HttpError } from "../../http/http-error";
import { ALLOW_PRIVATE, type TargetPolicy } from "../../net/targets";
import { resolveFields, type MonitorFields } from "../../monitors/field-rules";
import { LIMITS } from "../../monitors/public";
import { rowOf } from "../../monitors/store";
import { createCheckTypes } from "../../monitors/types";
import type { CheckType } from "../../monitors/types/check-type";
import { splitTag } from "../../tags/public";
import { kumaTags, mapKumaMonitor } from "./monitor-fields";
import { note } from "./notes";
import type { ImportLinks, KumaSection, KumaSource, Note, PlanItem } from "./section";


interface Prepared {
  item: PlanItem;
  kumaId: number;
  fields?: MonitorFields;
  parentKumaId: number | null;
  /** The Vigil monitor it updates. */
  targetId?: number;
}

/** What the request schemas (server/monitors/schemas.ts) refuse before resolveFields sees a body. */
function schemaProblem(f: MonitorFields): Note | null {
  if (f.url.length > LIMITS.urlLength) return note("monitor.urlTooLong", { max: LIMITS.urlLength });
  if (f.headers.length > LIMITS.maxHeaders) return note("monitor.tooManyHeaders", { max: LIMITS.maxHeaders });
  for (const h of f.headers) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(h.name)) return note("monitor.headerName", { name: h.name });
    if (h.value.length > LIMITS.headerValueLength || /[\r\n\0]/.test(h.value)) return note("monitor.headerValue", { name: h.name });
  }
  if (f.body !== null && f.body.length > LIMITS.bodyBytes) return note("monitor.bodyTooLarge");
  if (f.keyword !== null && f.keyword.length > LIMITS.keywordLength) return note("monitor.keywordTooLong", { max: LIMITS.keywordLength });
  if (f.jsonPath !== null && f.jsonPath.length > LIMITS.jsonPathLength) return note("monitor.jsonQueryTooLong", { max: LIMITS.jsonPathLength });
  if (f.host.length > LIMITS.hostLength) return note("monitor.hostTooLong", { max: LIMITS.hostLength });
  if (f.port !== null && (f.port < 1 || f.port > 65535)) return note("monitor.port");
  if (f.dnsResolver !== null && f.dnsResolver.length > LIMITS.resolverLength) return note("monitor.resolverTooLong");
  return null;
}

/**
 * Kuma's tag colours for the tags the imported monitors carry: a tag name Vigil has no colour for yet gets Kuma's (a
 * colour chosen in Vigil is kept, also on a later import). Names match without case, as tag_styles does.
 */
async function importTagColours(source: KumaSource, prepared: Prepared[], tx: Orm, t: Tables) {
  const kumaColour = new Map<string, string>();
  for (const tag of source.rows("tag")) {
    const colour = String(tag.color ?? "").trim().toLowerCase();
    if (/^#[0-9a-f]{6}$/.test(colour)) kumaColour.set(String(tag.name ?? "").trim().toLowerCase(), colour);
  }
  const kept = new Set((await tx.select({ name: t.tagStyles.name }).from(t.tagStyles)).map((r) => r.name.toLowerCase()));
  for (const p of prepared) {
    for (const tag of p.fields!.tags) {
      const { name } = splitTag(tag);
      const colour = kumaColour.get(name.toLowerCase());
      if (!colour || kept.has(name.toLowerCase())) continue;
      await tx.insert(t.tagStyles).values({ name, color: colour });
      kept.add(name.toLowerCase());
    }
  }
}

/** The monitors of the source, each with its plan item and (unless skipped) its validated fields. */
async function prepare(source: KumaSource, orm: Orm, t: Tables, links: ImportLinks, policy: TargetPolicy): Promise<Prepared[]> {
  const rows = [...source.rows("monitor")].sort((a, b) => Number(a.id) - Number(b.id));
  const tagsById = new Map(source.rows("tag").map((tag) => [Number(tag.id), tag]));
  const monitorTags = source.rows("monitor_tag");
  const settings = new Map(source.rows("setting").map((s) => [String(s.key), s.value]));
  const tlsDays = parseDays(settings.get("tlsExpiryNotifyDays"));
  const byId = (table: string) => new Map(source.rows(table).map((r) => [Number(r.id), r]));
  const kumaLinks = { dockerHosts: byId("docker_host"), remoteBrowsers: byId("remote_browser") };

  const linked = rows.map((r) => links.target("monitor", Number(r.id))).filter((id): id is number => id !== undefined);
  const existing = new Map<number, string | null>();
  if (linked.length > 0) {
    for (const r of await orm.select({ id: t.monitors.id, pushToken: t.monitors.pushToken }).from(t.monitors).where(inArray(t.monitors.id, linked))) existing.set(r.id, r.pushToken);
  }
  const wanted = rows.map((r) => String(r.push_token ?? "")).filter(Boolean);
  const tokensInUse = new Map<string, number>();
  if (wanted.length > 0) {
    for (const r of await orm.select({ id: t.monitors.id, pushToken: t.monitors.pushToken }).from(t.monitors).where(inArray(t.monitors.pushToken, wanted))) tokensInUse.set(r.pushToken!, r.id);
  }

  const types = createCheckTypes({ policy, later: laterCheckTypes() });
  // A type without check fields (a group) has nothing of its own to validate.
  const validate = (f: MonitorFields, p: TargetPolicy, creating: boolean, stored: Record<string, unknown>) =>
    (types.of(f.type) as CheckType | undefined)?.validate(f, p, creating, stored);
  const kumaIds = new Set(rows.map((r) => Number(r.id)));

  return rows.map((row): Prepared => {
    const kumaId = Number(row.id);
    const notes: Note[] = [];
    const tags = kumaTags(kumaId, monitorTags, tagsById, notes);
    const mapped = mapKumaMonitor(row, tags, { tlsExpiryDays: tlsDays, ...kumaLinks });
    const target = links.target("monitor", kumaId);
    const targetId = target !== undefined && existing.has(target) ? target : undefined;
    const item: PlanItem = { kind: "monitor", sourceId: String(kumaId), name: String(row.name ?? ""), action: targetId === undefined ? "create" : "update", notes };
    const skip = (reason: Note): Prepared => ({ item: { ...item, action: "skip", notes: [reason, ...notes] }, kumaId, parentKumaId: null });
    if ("skip" in mapped) return skip(mapped.skip);
    notes.push(...mapped.notes);
    let fields: MonitorFields;
    try {
      fields = resolveFields(mapped.change, undefined, policy, validate);
    } catch (e) {
      if (e instanceof HttpError) return skip(note("monitor.refused", { message: e.message }));
      throw e;
    }
    const problem = schemaProblem(fields);
    if (problem) return skip(problem);
    if (fields.type === "push") {
      const holder = mapped.pushToken === null ? undefined : tokensInUse.get(mapped.pushToken);
      if (mapped.pushToken !== null && (holder === undefined || holder === targetId)) fields.pushToken = mapped.pushToken;
      else if (targetId !== undefined && existing.get(targetId)) fields.pushToken = existing.get(targetId)!;
      if (holder !== undefined && holder !== targetId) notes.push(note("monitor.pushTokenInUse"));
    }
    if (mapped.parentKumaId !== null && !kumaIds.has(mapped.parentKumaId)) notes.push(note("monitor.groupMissing"));
    return { item, kumaId, fields, parentKumaId: mapped.parentKumaId, targetId };
  });
}

/** Kuma's tlsExpiryNotifyDays setting ([7, 14, 21] as JSON): the nearest day it warned, or 7 (its default). */
function parseDays(value: unknown): number | null {
  try {
    const days = (JSON.parse(String(value ?? "[7]")) as unknown[]).map(Number).filter((d) => Number.isInteger(d) && d >= 1 && d <= LIMITS.maxTlsExpiryDays);
    return days.length ? Math.min(...days) : null;
  } catch {
    return 7;
  }
}

export const monitorsSection: KumaSection = {
  kind: "monitor",

  async plan(source, { db, links, options }) {
    return (await prepare(source, db.orm, db.t, links, options.targets ?? ALLOW_PRIVATE)).map((p) => p.item);
  },

  async apply(source, items, { db, tx, links, now, options }) {
    const t = db.t;
    const planned = new Set(items.filter((i) => i.action !== "skip").map((i) => i.sourceId));
    const prepared = (await prepare(source, tx, t, links, options.targets ?? ALLOW_PRIVATE)).filter((p) => p.fields && planned.has(p.item.sourceId));
    const written = new Map<number, number>();
    for (const p of prepared) {
      const row = { ...rowOf({ ...p.fields!, parentId: null }), updatedAt: now };
      let id = p.targetId;
      if (id === undefined) {
        const [created] = await tx.insert(t.monitors).values({ ...row, createdAt: now }).returning({ id: t.monitors.id });
        id = created!.id;
      } else {
        await tx.update(t.monitors).set(row).where(eq(t.monitors.id, id));
      }
      written.set(p.kumaId, id);
      links.link("monitor", p.kumaId, id);
    }
    for (const p of prepared) {
      const parentId = p.parentKumaId === null ? undefined : links.target("monitor", p.parentKumaId);
      if (parentId !== undefined) await tx.update(t.monitors).set({ parentId }).where(eq(t.monitors.id, written.get(p.kumaId)!));
    }
    await importTagColours(source, prepared, tx, t);
  },
};
