// /api/status-pages (signed in): any number of status pages, each with its address, texts, logo, visibility (public,
// password, signed-in users), custom domain and its monitors and agents in named groups. Page 1 is the default page
// (/status), which cannot be deleted; /api/status/config still edits it the old way.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { badRequest, notFound } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import { serverUrl } from "../http/server-url";
import {
  ANNOUNCEMENT_MAX,
  ANNOUNCEMENT_SEVERITIES,
  RESERVED_SLUGS,
  STATUS_DESCRIPTION_MAX,
  STATUS_GROUP_NAME_MAX,
  STATUS_GROUPS_MAX,
  STATUS_ITEMS_MAX,
  STATUS_LOGO_MAX,
  STATUS_PASSWORD_MIN,
  STATUS_SLUG_MAX,
  STATUS_TITLE_MAX,
  STATUS_VISIBILITIES,
  type StatusPageInput,
  type StatusPageSettings,
} from "./public";
import type { StatusService } from "./service";
import type { Role } from "../users/public";
import { feedLink, newFeedKey } from "./feeds";
import { DEFAULT_PAGE_ID, type PageValues, type StoredPage } from "./store";

const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const DATA_IMAGE = /^data:image\/(?:png|jpeg|webp|gif|svg\+xml);base64,[A-Za-z0-9+/]+=*$/;

const pageBody = t.Object({
  slug: t.String({ maxLength: STATUS_SLUG_MAX, error: `The address must be 1-${STATUS_SLUG_MAX} characters` }),
  title: t.String({ maxLength: STATUS_TITLE_MAX, error: `Title must be at most ${STATUS_TITLE_MAX} characters` }),
  description: t.String({ maxLength: STATUS_DESCRIPTION_MAX, error: `Description must be at most ${STATUS_DESCRIPTION_MAX} characters` }),
  logo: t.Union([t.Null(), t.String({ maxLength: STATUS_LOGO_MAX })], { error: `The logo must be an https URL or an image of at most ${STATUS_LOGO_MAX} characters as a data URL` }),
  customDomain: t.Union([t.Null(), t.String({ maxLength: 253 })], { error: "customDomain must be a host name or null" }),
  visibility: t.UnionEnum([...STATUS_VISIBILITIES], { error: `visibility must be one of ${STATUS_VISIBILITIES.join(", ")}` }),
  password: t.Optional(t.String({ maxLength: 200, error: "The password must be at most 200 characters" })),
  announcement: t.Union(
    [t.Null(), t.Object({ severity: t.UnionEnum([...ANNOUNCEMENT_SEVERITIES]), text: t.String({ maxLength: ANNOUNCEMENT_MAX }) })],
    { error: `announcement must be null or { severity: info|warning|outage, text } (at most ${ANNOUNCEMENT_MAX} characters)` },
  ),
  showLocations: t.Optional(t.Boolean({ error: "showLocations must be true or false" })),
  groups: t.Array(
    t.Object({
      name: t.String({ maxLength: STATUS_GROUP_NAME_MAX, error: `A group's name must be at most ${STATUS_GROUP_NAME_MAX} characters` }),
      items: t.Array(t.Object({ type: t.UnionEnum(["monitor", "agent"]), id: t.Integer({ minimum: 1 }) }), { maxItems: STATUS_ITEMS_MAX }),
    }),
    { maxItems: STATUS_GROUPS_MAX, error: `groups must be a list of at most ${STATUS_GROUPS_MAX} groups of { type: monitor|agent, id } items` },
  ),
});

/**
 * Checks what a save writes; `before` is the page being edited (its password may be kept). `hash` keeps a new
 * password (a configuration file's plan keeps it as given, to compare with the stored hash).
 */
export async function pageValues(
  input: StatusPageInput,
  before: Pick<StoredPage, "passwordHash" | "showLocations"> | null,
  exists: (type: "monitor" | "agent", id: number) => boolean,
  hash: (password: string) => Promise<string> = (p) => Bun.password.hash(p),
): Promise<PageValues> {
  const slug = input.slug.trim().toLowerCase();
  if (!SLUG.test(slug)) throw badRequest("STATUS_PAGE_SLUG_INVALID", "The address may hold lower-case letters, digits and dashes (not at either end)");
  if (RESERVED_SLUGS.includes(slug)) throw badRequest("STATUS_PAGE_SLUG_RESERVED", `"${slug}" is reserved: choose another address`);
  const logo = input.logo?.trim() || null;
  if (logo !== null && !DATA_IMAGE.test(logo) && !/^https:\/\/[^\s"'<>]+$/i.test(logo)) {
    throw badRequest("STATUS_PAGE_LOGO_INVALID", "The logo must be an https URL or an image (PNG, JPEG, WebP, GIF, SVG)");
  }
  const customDomain = input.customDomain?.trim().toLowerCase().replace(/\.$/, "") || null;
  if (customDomain !== null && !HOST.test(customDomain)) throw badRequest("STATUS_PAGE_DOMAIN_INVALID", "The domain must be a host name such as status.example.com");
  let passwordHash: string | null | undefined;
  if (input.visibility === "password") {
    if (input.password !== undefined && input.password !== "") {
      if (input.password.length < STATUS_PASSWORD_MIN) throw badRequest("STATUS_PAGE_PASSWORD_SHORT", `The password must be at least ${STATUS_PASSWORD_MIN} characters`);
      passwordHash = await hash(input.password);
    } else if (!before?.passwordHash) throw badRequest("STATUS_PAGE_PASSWORD_REQUIRED", "A password-protected page needs a password");
  } else passwordHash = before?.passwordHash ? null : undefined;
  const seen = new Set<string>();
  let count = 0;
  const groups = input.groups.map((g) => ({ name: g.name.trim(), items: g.items }));
  for (const g of groups) {
    for (const item of g.items) {
      const key = `${item.type}:${item.id}`;
      if (seen.has(key)) throw badRequest("STATUS_PAGE_DUPLICATE_ITEM", `The ${item.type} ${item.id} is on the page twice`);
      seen.add(key);
      if (!exists(item.type, item.id)) throw badRequest(item.type === "monitor" ? "MONITOR_UNKNOWN" : "AGENT_UNKNOWN", `Unknown ${item.type} on the page: ${item.id}`);
    }
    count += g.items.length;
  }
  if (count > STATUS_ITEMS_MAX) throw badRequest("STATUS_PAGE_TOO_MANY_ITEMS", `A page lists at most ${STATUS_ITEMS_MAX} monitors and agents`);
  const text = input.announcement?.text.trim() ?? "";
  if (input.announcement && !text) throw badRequest("VALIDATION", "Announcement text is required (or clear the announcement)");
  return {
    slug,
    title: input.title.trim(),
    description: input.description.trim(),
    logo,
    customDomain,
    visibility: input.visibility,
    passwordHash,
    announcement: input.announcement ? { severity: input.announcement.severity, text } : null,
    showLocations: input.showLocations ?? before?.showLocations ?? false,
    groups: groups.filter((g) => g.items.length > 0),
  };
}

export interface PageRouteDeps {
  status: StatusService;
  session: ReturnType<typeof sessions>;
  exists: (type: "monitor" | "agent", id: number) => boolean;
  publicUrl?: string;
  trustProxy: number;
}

export function statusPageRoutes({ status, session, exists, publicUrl, trustProxy }: PageRouteDeps) {
  /** A page's settings as `role` may see them: the feed key (a secret) is for admins and editors only. */
  const settingsOf = (p: StoredPage, request: Request, role: Role): StatusPageSettings => {
    const server = serverUrl(request, publicUrl, trustProxy);
    const key = role === "viewer" || p.visibility === "public" ? null : p.feedKey;
    const withKey = (k: string, kind: "atom" | "rss") => `${feedLink(server, p.slug, kind)}?key=${encodeURIComponent(k)}`;
    return {
      id: p.id,
      isDefault: p.id === DEFAULT_PAGE_ID,
      slug: p.slug,
      title: p.title,
      description: p.description,
      logo: p.logo,
      customDomain: p.customDomain,
      visibility: p.visibility,
      hasPassword: p.passwordHash !== null,
      announcement: p.announcement,
      showLocations: p.showLocations,
      groups: p.groups,
      url: `${server}/status${p.id === DEFAULT_PAGE_ID ? "" : `/${p.slug}`}`,
      feedKey: key,
      feedLinks: key === null ? null : { atom: withKey(key, "atom"), rss: withKey(key, "rss") },
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    };
  };

  const pageNotFound = () => notFound("STATUS_PAGE_NOT_FOUND", "Status page not found");
  const params = idParams("status page");

  return new Elysia({ prefix: "/api/status-pages", detail: { tags: ["status"] } })
    .use(session)
    .get("", async ({ request, user }) => ({ success: true, pages: (await status.pages()).map((p) => settingsOf(p, request, user.role)) }), {
      auth: "user",
      detail: doc("Every status page with its settings (never its password)"),
    })
    .post(
      "",
      async ({ body, request, set, user }) => {
        const id = await status.create(await pageValues(body, null, exists));
        set.status = 201;
        return { success: true, message: "Status page created", page: settingsOf((await status.page(id))!, request, user.role) };
      },
      { auth: "user", body: pageBody, detail: doc("Create a status page", 400, 409) },
    )
    .get(
      "/:id",
      async ({ params: { id }, request, user }) => {
        const page = await status.page(id);
        if (!page) throw pageNotFound();
        return { success: true, page: settingsOf(page, request, user.role) };
      },
      { auth: "user", params, detail: doc("A status page's settings") },
    )
    .put(
      "/:id",
      async ({ params: { id }, body, request, user }) => {
        const before = await status.page(id);
        if (!before) throw pageNotFound();
        if (!(await status.update(id, await pageValues(body, before, exists)))) throw pageNotFound();
        return { success: true, message: "Status page saved", page: settingsOf((await status.page(id))!, request, user.role) };
      },
      { auth: "user", params, body: pageBody, detail: doc("Save a status page (a password given replaces the old one and signs its visitors out)", 400, 409) },
    )
    // The feed link of a page that is not public: a new key (which revokes the old link), or none.
    .post(
      "/:id/feed-key",
      async ({ params: { id }, request, user }) => {
        const page = await status.page(id);
        if (!page) throw pageNotFound();
        if (page.visibility === "public") throw badRequest("STATUS_PAGE_PUBLIC", "A public page's feeds need no key");
        if (!(await status.setFeedKey(id, newFeedKey()))) throw pageNotFound();
        return { success: true, message: "New feed link created: the old one no longer works", page: settingsOf((await status.page(id))!, request, user.role) };
      },
      { auth: "editor", params, detail: doc("Create or replace the secret feed link of a password or private page (the old link stops working)", 400) },
    )
    .delete(
      "/:id/feed-key",
      async ({ params: { id }, request, user }) => {
        if (!(await status.setFeedKey(id, null))) throw pageNotFound();
        return { success: true, message: "Feed link turned off", page: settingsOf((await status.page(id))!, request, user.role) };
      },
      { auth: "editor", params, detail: doc("Turn off the secret feed link of a page") },
    )
    .delete(
      "/:id",
      async ({ params: { id } }) => {
        if (!(await status.remove(id))) throw pageNotFound();
        return { success: true, message: "Status page deleted" };
      },
      { auth: "user", params, detail: doc("Delete a status page (not the default one)", 409) },
    );
}
