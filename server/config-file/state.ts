// What the database holds, in file form: every monitor, group, tag colour, channel, status page and maintenance
// window with its key — the one config_links
// gives it (a managed object), or else one derived from its name (what export writes, and what an apply of that
// export adopts, so exporting and applying into the same instance manages the objects instead of copying them).
import type { Orm } from "../db/database";
import type { Tables } from "../db/pg-schema";
import type { MonitorFields } from "../monitors/field-rules";
import { fieldsOf } from "../monitors/stored-fields";
import { hashForm, monitorForm, slug, tagForm, type FileObject } from "./model";
import type { Kind } from "./schema";
import { SECTION_DEFS } from "./sections";
import { readOverrides } from "./sections/notify";
import type { SectionRow } from "./sections/section";

export interface Link {
  kind: Kind;
  key: string;
  objectId: string;
  appliedHash: string;
}

export interface CurrentObject extends FileObject {
  objectId: string;
  hash: string;
  /** The config_links row, when a file manages it. */
  link: Link | null;
  /** Monitors and groups: the fields as stored (apply keeps what the file does not say: the push token). */
  fields?: MonitorFields;
  /** Sections' objects: the row as read (with what a write keeps). */
  row?: SectionRow;
}

export interface State {
  objects: CurrentObject[];
  /** Links whose object is gone (deleted in the UI): a file that still has the key creates it again. */
  orphans: Link[];
  byKey(kind: Kind, key: string): CurrentObject | undefined;
}

export async function readState(orm: Orm, t: Tables): Promise<State> {
  const links = (await orm.select().from(t.configLinks)) as Link[];
  const rows = await orm.select().from(t.monitors).orderBy(t.monitors.id);
  const deps = await orm.select().from(t.monitorDependencies);
  const styles = await orm.select().from(t.tagStyles).orderBy(t.tagStyles.name);

  const linkOf = new Map(links.map((l) => [`${l.kind}\0${l.objectId}`, l]));
  const used = new Map<string, Set<string>>();
  const taken = (ns: string) => used.get(ns) ?? used.set(ns, new Set()).get(ns)!;
  // Monitors and groups share one namespace (dependsOn names either).
  const space = (kind: Kind) => (kind === "group" ? "monitor" : kind);
  for (const l of links) taken(space(l.kind)).add(l.key);
  const keyFor = (kind: Kind, objectId: string, name: string, id: string): { key: string; link: Link | null } => {
    const link = linkOf.get(`${kind}\0${objectId}`) ?? null;
    if (link) return { key: link.key, link };
    const names = taken(space(kind));
    let key = slug(name);
    if (names.has(key)) key = `${key}-${id}`;
    for (let n = 2; names.has(key); n++) key = `${slug(name)}-${id}-${n}`;
    names.add(key);
    return { key, link: null };
  };

  // Sections' rows and keys first: monitors name channels (notify), status pages and maintenance name monitors.
  const sectionKeys = new Map<Kind, Map<string, { key: string; link: Link | null }>>();
  const keysOf = (kind: Kind) => sectionKeys.get(kind) ?? sectionKeys.set(kind, new Map()).get(kind)!;
  const assign = (kind: Kind, rows: SectionRow[]) => {
    // An unmanaged status page's key is its slug (a slug changed in the UI since an apply is drift on `slug`).
    for (const r of rows) keysOf(kind).set(r.objectId, keyFor(kind, r.objectId, r.naturalKey ?? r.name, r.objectId));
  };
  const channelDef = SECTION_DEFS.find((d) => d.kind === "channel")!;
  const channelRows = await channelDef.read(orm, t, { monitorKey: () => "" });
  assign("channel", channelRows);
  const overrides = await readOverrides(orm, t, (id) => keysOf("channel").get(String(id))?.key ?? `#${id}`);

  const monitorKeys = new Map<number, { key: string; link: Link | null; kind: Kind }>();
  for (const r of rows) {
    const kind: Kind = r.type === "group" ? "group" : "monitor";
    monitorKeys.set(r.id, { ...keyFor(kind, String(r.id), r.name, String(r.id)), kind });
  }
  const dependsOn = new Map<number, number[]>();
  for (const d of deps) dependsOn.set(d.monitorId, [...(dependsOn.get(d.monitorId) ?? []), d.dependsOnId]);

  const objects: CurrentObject[] = [];
  for (const r of rows) {
    const { key, link, kind } = monitorKeys.get(r.id)!;
    const fields = fieldsOf(r);
    const refKey = (id: number) => monitorKeys.get(id)?.key ?? `#${id}`;
    const form = monitorForm(kind as "monitor" | "group", fields, {
      group: r.parentId === null ? null : refKey(r.parentId),
      dependsOn: (dependsOn.get(r.id) ?? []).map(refKey),
      notify: overrides.get(r.id) ?? null,
    });
    objects.push({ kind, key, name: r.name, form, objectId: String(r.id), hash: hashForm(form), link, fields });
  }
  for (const s of styles) {
    const { key, link } = keyFor("tag", s.name, s.name, s.name.toLowerCase().replace(/[^a-z0-9]+/g, "-"));
    const form = tagForm(s.name, s.color);
    objects.push({ kind: "tag", key, name: s.name, form, objectId: s.name, hash: hashForm(form), link });
  }
  const monitorKey = (id: number) => monitorKeys.get(id)?.key ?? `#${id}`;
  for (const def of SECTION_DEFS) {
    const rows = def.kind === "channel" ? channelRows : await def.read(orm, t, { monitorKey });
    if (def.kind !== "channel") assign(def.kind, rows);
    for (const r of rows) {
      const { key, link } = keysOf(def.kind).get(r.objectId)!;
      objects.push({ kind: def.kind, key, name: r.name, form: r.form, objectId: r.objectId, hash: hashForm(r.form), link, row: r });
    }
  }
  const present = new Set(objects.map((o) => `${o.kind}\0${o.objectId}`));
  const orphans = links.filter((l) => !present.has(`${l.kind}\0${l.objectId}`));
  const index = new Map(objects.map((o) => [`${o.kind}\0${o.key}`, o]));
  return { objects, orphans, byKey: (kind, key) => index.get(`${kind}\0${key}`) };
}
