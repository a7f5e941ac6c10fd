// `statusPages:` — status pages by their slug (the natural key): title, description, logo, visibility, password (a
// secret: the database keeps only its hash, so plan checks the file's password against it and export always writes a
// reference), custom domain, locations, and groups of monitors by key — checked by POST /api/status-pages' own rules
// (server/status/pages.ts pageValues). What the file does not hold stays as the UI left it: the announcement (posted
// during an incident, not configuration), the agents a page shows and its feed link.
import { asc, eq, max } from "drizzle-orm";
import { t } from "elysia";
import { first, type Orm } from "../../db/database";
import type { Tables } from "../../db/pg-schema";
import { HttpError } from "../../http/http-error";
import { pageValues } from "../../status/pages";
import {
  DEFAULT_STATUS_PAGE_ID,
  STATUS_DESCRIPTION_MAX,
  STATUS_GROUP_NAME_MAX,
  STATUS_GROUPS_MAX,
  STATUS_ITEMS_MAX,
  STATUS_LOGO_MAX,
  STATUS_SLUG_MAX,
  STATUS_TITLE_MAX,
  STATUS_VISIBILITIES,
  type StatusVisibility,
} from "../../status/public";
import { stable, type Form } from "../model";
import { keyRef } from "../schema-parts";
import { EntryProblem, HASHED, shortenBy, type SectionDef, type SectionRow } from "./section";

const entry = t.Object(
  {
    slug: t.String({ pattern: "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$", maxLength: STATUS_SLUG_MAX, error: `slug is the page's address: 1-${STATUS_SLUG_MAX} lower-case letters, digits and dashes (not at either end)`, description: "The page's address (/status/<slug>) and its key in this file." }),
    title: t.Optional(t.String({ maxLength: STATUS_TITLE_MAX, error: `Title must be at most ${STATUS_TITLE_MAX} characters` })),
    description: t.Optional(t.String({ maxLength: STATUS_DESCRIPTION_MAX, error: `Description must be at most ${STATUS_DESCRIPTION_MAX} characters` })),
    logo: t.Optional(t.String({ maxLength: STATUS_LOGO_MAX, error: "The logo must be an https URL or an image as a data URL" })),
    customDomain: t.Optional(t.String({ maxLength: 253, error: "customDomain must be a host name" })),
    visibility: t.Optional(t.UnionEnum([...STATUS_VISIBILITIES], { error: `visibility must be one of ${STATUS_VISIBILITIES.join(", ")}` })),
    password: t.Optional(t.String({ maxLength: 200, error: "The password must be at most 200 characters", description: "visibility password: the page's password (a ${ENV} reference)." })),
    showLocations: t.Optional(t.Boolean({ error: "showLocations must be true or false" })),
    groups: t.Optional(
      t.Array(
        t.Object(
          {
            name: t.Optional(t.String({ maxLength: STATUS_GROUP_NAME_MAX, error: `A group's name must be at most ${STATUS_GROUP_NAME_MAX} characters` })),
            monitors: t.Array(keyRef("monitor or group"), { maxItems: STATUS_ITEMS_MAX, error: "monitors must be a list of monitor keys" }),
          },
          { additionalProperties: false },
        ),
        { maxItems: STATUS_GROUPS_MAX, error: `groups must be a list of at most ${STATUS_GROUPS_MAX} groups` },
      ),
    ),
  },
  { additionalProperties: false, description: "A status page: its monitors in named groups, by key." },
);

/** The default page as it is before anyone saves it. */
const UNSAVED_DEFAULT = { id: DEFAULT_STATUS_PAGE_ID, slug: "default", title: "", description: "", logo: null, customDomain: null, visibility: "public" as const, showLocations: false };
const UNSAVED_FORM = stable({ ...UNSAVED_DEFAULT, id: undefined, groups: [] });

/** The API's refusals by code, and the field each is about. */
const FIELD_OF_CODE: [string, string][] = [
  ["STATUS_PAGE_SLUG", "slug"],
  ["STATUS_PAGE_LOGO", "logo"],
  ["STATUS_PAGE_DOMAIN", "customDomain"],
  ["STATUS_PAGE_PASSWORD", "password"],
  ["STATUS_PAGE_TOO_MANY", "groups"],
];

interface Kept {
  /** The agents the page shows (not in the file), by group name, in page order. */
  agents: { group: string; id: number }[];
}

async function resolve(e: Form, monitorKeys: Set<string> | null): Promise<Form> {
  const groups = (e.groups as { name?: string; monitors: string[] }[] | undefined) ?? [];
  // Monitors by key, checked here (the API's check is by id): each known, once on the page.
  const index = new Map<string, number>();
  groups.forEach((g, gi) =>
    g.monitors.forEach((k, mi) => {
      if (monitorKeys && !monitorKeys.has(k)) throw new EntryProblem(["groups", gi, "monitors", mi], `no monitor or group has the key "${k}"`);
      if (index.has(k)) throw new EntryProblem(["groups", gi, "monitors", mi], `the monitor "${k}" is on the page twice`);
      index.set(k, index.size + 1);
    }),
  );
  const keyOf = new Map([...index].map(([k, i]) => [i, k]));
  const values = await pageValues(
    {
      slug: e.slug as string,
      title: (e.title as string | undefined) ?? "",
      description: (e.description as string | undefined) ?? "",
      logo: (e.logo as string | undefined) ?? null,
      customDomain: (e.customDomain as string | undefined) ?? null,
      visibility: (e.visibility as StatusVisibility | undefined) ?? "public",
      password: e.password as string | undefined,
      announcement: null,
      showLocations: (e.showLocations as boolean | undefined) ?? false,
      groups: groups.map((g) => ({ name: g.name ?? "", items: g.monitors.map((k) => ({ type: "monitor" as const, id: index.get(k)! })) })),
    },
    null,
    () => true,
    // Kept as given: compared with the stored hash by reconcile, hashed when written.
    async (p) => p,
  ).catch((err: unknown) => {
    const field = err instanceof HttpError ? FIELD_OF_CODE.find(([prefix]) => err.code.startsWith(prefix))?.[1] : undefined;
    throw field ? new EntryProblem([field], (err as Error).message) : err;
  });
  return {
    slug: values.slug,
    title: values.title,
    description: values.description,
    logo: values.logo,
    customDomain: values.customDomain,
    visibility: values.visibility,
    ...(values.visibility === "password" ? { password: values.passwordHash } : {}),
    showLocations: values.showLocations,
    groups: values.groups.map((g) => ({ name: g.name, monitors: g.items.map((i) => keyOf.get(i.id)!) })),
  };
}

export const statusPages: SectionDef = {
  section: "statusPages",
  kind: "status_page",
  entry,
  keyField: "slug",

  async read(orm, t, refs) {
    const rows = await orm.select().from(t.statusPage).orderBy(asc(t.statusPage.id));
    const monitors = await orm.select().from(t.statusPageMonitors).orderBy(asc(t.statusPageMonitors.position));
    const agents = await orm.select().from(t.statusPageAgents).orderBy(asc(t.statusPageAgents.position));
    // The default page exists before its first save (the API shows it empty).
    const pages = rows.some((r) => r.id === DEFAULT_STATUS_PAGE_ID) ? rows : [{ ...UNSAVED_DEFAULT, passwordHash: null }, ...rows];
    return pages.map((p): SectionRow => {
      const groups: { name: string; monitors: string[] }[] = [];
      for (const m of monitors.filter((x) => x.pageId === p.id)) {
        let g = groups.find((x) => x.name === m.groupName);
        if (!g) groups.push((g = { name: m.groupName, monitors: [] }));
        g.monitors.push(refs.monitorKey(m.monitorId));
      }
      const kept: Kept = { agents: agents.filter((a) => a.pageId === p.id).map((a) => ({ group: a.groupName, id: a.agentId })) };
      const form: Form = {
        slug: p.slug,
        title: p.title,
        description: p.description,
        logo: p.logo,
        customDomain: p.customDomain,
        visibility: p.visibility,
        ...(p.visibility === "password" && p.passwordHash ? { password: `${HASHED}${p.passwordHash}` } : {}),
        showLocations: p.showLocations,
        groups,
      };
      return { objectId: String(p.id), name: p.title || p.slug, naturalKey: p.slug, form, kept };
    });
  },

  resolve: (e, ctx) => resolve(e, ctx.monitorKeys),

  // An untouched default page is not written out (every instance has one).
  pristine: (row) => row.objectId === String(DEFAULT_STATUS_PAGE_ID) && stable(row.form) === UNSAVED_FORM,

  secrets: () => new Map([["password", true]]),

  // The stored hash stands for the file's password when that password matches it.
  async reconcile(current, desired, book) {
    const plain = desired.password;
    if (typeof plain !== "string") return current;
    const stored = current?.password;
    if (typeof stored === "string" && stored.startsWith(HASHED) && (await book.verify(plain, stored.slice(HASHED.length)))) return { ...current, password: plain };
    await book.hash(plain);
    return current;
  },

  shorten(e) {
    const full = async (x: Form) => {
      try {
        return stable(await resolve(x, null));
      } catch {
        return null;
      }
    };
    const out = { ...e };
    for (const field of ["logo", "customDomain"]) if (out[field] === null) delete out[field];
    out.groups = (out.groups as Form[]).map((g) => (g.name === "" ? { monitors: g.monitors } : g));
    return shortenBy(out, full, ["slug", "password", "groups"]).then((s) => ((s.groups as Form[]).length ? s : (({ groups: _, ...rest }) => rest)(s)));
  },

  async write(tx, t, form, current, refs, now) {
    const id = current ? Number(current.objectId) : await newPageId(tx, t, now);
    const before = await first(tx.select().from(t.statusPage).where(eq(t.statusPage.id, id)));
    const password = form.password as string | undefined;
    // A password the stored hash already matches keeps its hash (and its visitors' unlock tokens).
    const same = typeof password === "string" && before?.passwordHash ? await refs.passwords.verify(password, before.passwordHash) : false;
    const passwordColumns =
      password === undefined
        ? before?.passwordHash ? { passwordHash: null, passwordVersion: before.passwordVersion + 1 } : {}
        : same ? {} : { passwordHash: await refs.passwords.hash(password), passwordVersion: (before?.passwordVersion ?? 0) + 1 };
    const visibility = form.visibility as StatusVisibility;
    const columns = {
      slug: form.slug as string,
      title: form.title as string,
      description: form.description as string,
      logo: form.logo as string | null,
      customDomain: form.customDomain as string | null,
      visibility,
      showLocations: form.showLocations as boolean,
      // A public page's feeds need no key: an old link must not come back if the page is locked again.
      ...(visibility === "public" ? { feedKey: null } : {}),
      ...passwordColumns,
      updatedAt: now,
    };
    if (before) await tx.update(t.statusPage).set(columns).where(eq(t.statusPage.id, id));
    else await tx.insert(t.statusPage).values({ id, ...columns, createdAt: now });
    await writeItems(tx, t, id, form.groups as { name: string; monitors: string[] }[], (current?.kept as Kept | undefined)?.agents ?? [], refs.monitorId);
    return String(id);
  },

  async remove(tx, t, objectId) {
    await tx.delete(t.statusPage).where(eq(t.statusPage.id, Number(objectId)));
  },
  // The default page is never deleted (as in the API): prune only stops managing it.
  removable: (objectId) => Number(objectId) !== DEFAULT_STATUS_PAGE_ID,
};

/** As the store creates pages: the default page first when it was never saved, so it keeps id 1. */
async function newPageId(tx: Orm, t: Tables, now: number): Promise<number> {
  const [top] = await tx.select({ id: max(t.statusPage.id) }).from(t.statusPage);
  if (!top?.id) await tx.insert(t.statusPage).values({ id: DEFAULT_STATUS_PAGE_ID, slug: "default", createdAt: now, updatedAt: now });
  return Math.max(top?.id ?? 0, DEFAULT_STATUS_PAGE_ID) + 1;
}

/** The page's items in order: the file's monitors, then the agents it kept, in their groups (new groups last). */
async function writeItems(tx: Orm, t: Tables, pageId: number, groups: { name: string; monitors: string[] }[], agents: Kept["agents"], monitorId: (key: string) => number) {
  await tx.delete(t.statusPageMonitors).where(eq(t.statusPageMonitors.pageId, pageId));
  await tx.delete(t.statusPageAgents).where(eq(t.statusPageAgents.pageId, pageId));
  const order = [...groups.map((g) => g.name), ...agents.map((a) => a.group).filter((n) => !groups.some((g) => g.name === n))];
  let position = 0;
  for (const name of [...new Set(order)]) {
    const monitors = groups.find((g) => g.name === name)?.monitors ?? [];
    if (monitors.length) await tx.insert(t.statusPageMonitors).values(monitors.map((k) => ({ pageId, monitorId: monitorId(k), position: position++, groupName: name })));
    const kept = agents.filter((a) => a.group === name);
    if (kept.length) await tx.insert(t.statusPageAgents).values(kept.map((a) => ({ pageId, agentId: a.id, position: position++, groupName: name })));
  }
}
