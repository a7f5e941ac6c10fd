// /api/status: the public page (no sign-in; cached, ETag / 304), its badges, and its configuration (signed in).
import { Elysia, t } from "elysia";
import { secondFactorRequired, type sessions } from "../auth/session";
import type { UserRow } from "../db/schema";
import { acceptsGzip } from "../http/compression";
import { badRequest, HttpError, notFound } from "../http/errors";
import { clientIp } from "../http/client-ip";
import { contentResponse, doc } from "../http/openapi";
import { serverUrl } from "../http/server-url";
import { badgeSvg } from "./badge";
import { ANNOUNCEMENT_MAX, ANNOUNCEMENT_SEVERITIES, STATUS_DESCRIPTION_MAX, STATUS_ITEMS_MAX, STATUS_TITLE_MAX, type AnnouncementSeverity, type StatusMonitor, type StatusPageConfig } from "./public";
import type { StatusService } from "./service";
import { atomFeed, feedLink, rssFeed, sameSecret, summary, type FeedLocale } from "./feeds";
import { DEFAULT_PAGE_ID, type StoredConfig, type StoredPage } from "./store";

const ids = (what: string) =>
  t.Array(t.Integer({ minimum: 1, error: `${what} must be ${what === "monitorIds" ? "monitor" : "agent"} ids (positive integers)` }), {
    maxItems: STATUS_ITEMS_MAX,
    error: `${what} must be a list of at most ${STATUS_ITEMS_MAX} ids`,
  });

const configBody = t.Object({
  title: t.String({ maxLength: STATUS_TITLE_MAX, error: `Title must be at most ${STATUS_TITLE_MAX} characters` }),
  description: t.String({ maxLength: STATUS_DESCRIPTION_MAX, error: `Description must be at most ${STATUS_DESCRIPTION_MAX} characters` }),
  monitorIds: ids("monitorIds"),
  agentIds: ids("agentIds"),
  announcement: t.Union([
    t.Null(),
    t.Object({
      severity: t.String(), // checked in the handler: a union's own message would hide which part was wrong
      text: t.String({ maxLength: ANNOUNCEMENT_MAX, error: `Announcement must be at most ${ANNOUNCEMENT_MAX} characters` }),
    }),
  ], { error: "announcement must be null or { severity, text }" }),
});

/** Browsers and proxies may keep the page a few seconds; after that they revalidate (304 when unchanged). */
const PAGE_CACHE = "public, max-age=5";
const BADGE_CACHE = "public, max-age=60";
/** What a page that is not public is served with: its content needs a credential, so no cache may keep it. */
const CREDENTIALED = { "cache-control": "private, no-store", vary: "authorization, x-status-token" };
const cacheOf = (page: StoredPage) => (page.visibility === "public" ? { "cache-control": PAGE_CACHE } : CREDENTIALED);
/** Wrong passwords of a page from one address: at most this many per window. */
const UNLOCK_ATTEMPTS = 10;
const UNLOCK_WINDOW_MS = 15 * 60_000;

export interface StatusRouteDeps {
  status: StatusService;
  session: ReturnType<typeof sessions>;
  monitorExists: (id: number) => boolean | Promise<boolean>;
  agentExists: (id: number) => boolean | Promise<boolean>;
  publicUrl?: string;
  trustProxy: number;
  /** The language and zone feeds are written in (the instance's message settings). */
  feedLocale: () => Promise<FeedLocale>;
}

/** The first id that `exists` denies. */
async function firstMissing(ids: number[], exists: (id: number) => boolean | Promise<boolean>): Promise<number | undefined> {
  for (const id of ids) if (!(await exists(id))) return id;
  return undefined;
}

const isSeverity = (s: string): s is AnnouncementSeverity => (ANNOUNCEMENT_SEVERITIES as readonly string[]).includes(s);

/** Whether an If-None-Match header names one of these tags (a list, weak tags and `*` included). */
function matches(header: string | null, etags: string[]): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || etags.includes(value.replace(/^W\//, ""));
  });
}

export function statusRoutes({ status, session, monitorExists, agentExists, publicUrl, trustProxy, feedLocale }: StatusRouteDeps) {
  const reply = (config: StoredConfig, request: Request): StatusPageConfig => ({ ...config, publicUrl: `${serverUrl(request, publicUrl, trustProxy)}/status` });
  const pageUrl = (page: StoredPage, request: Request) => `${serverUrl(request, publicUrl, trustProxy)}/status${page.id === DEFAULT_PAGE_ID ? "" : `/${page.slug}`}`;
  const feedUrl = (page: StoredPage, request: Request, kind: "atom" | "rss") => feedLink(serverUrl(request, publicUrl, trustProxy), page.slug, kind);
  const unlockAttempts = new Map<string, { count: number; since: number }>();

  /** The page named by its slug (404 for none). */
  async function bySlug(slug: string): Promise<StoredPage> {
    const page = await status.bySlug(slug);
    if (!page) throw notFound("STATUS_PAGE_NOT_FOUND", "Status page not found");
    return page;
  }

  /** What admit needs from the session plugin. */
  interface Admission {
    verifySession: (t: string) => Promise<{ user: UserRow } | null>;
    twoFactorPending: (user: UserRow) => boolean;
    jwt: { verify: (t?: string) => Promise<false | Record<string, unknown>> };
  }

  /**
   * Whether the caller may see a page: anyone a public one; a signed-in user any; a password page also whoever
   * brings its unlock token (x-status-token header or ?token=); a feed (`feed: true`) also whoever brings the page's
   * feed key as ?key=. Refused: 401 saying only what it takes. Returns the feed key it admitted, if any.
   */
  async function admit(page: StoredPage, request: Request, ctx: Admission, feed = false): Promise<string | undefined> {
    if (page.visibility === "public") return;
    const query = new URL(request.url).searchParams;
    const key = feed ? query.get("key") : null;
    if (key !== null && page.feedKey !== null && sameSecret(key, page.feedKey)) return key;
    const auth = request.headers.get("authorization") ?? "";
    const bearer = auth.startsWith("Bearer ") ? auth.slice(7).trim() : "";
    const session = bearer ? await ctx.verifySession(bearer) : null;
    // A session held back by the two-factor policy is not yet signed in for anything but its enrolment; a password
    // page's unlock token still opens that page.
    const pending = session !== null && ctx.twoFactorPending(session.user);
    if (session && !pending) return;
    if (page.visibility === "password") {
      const token = request.headers.get("x-status-token") || query.get("token") || "";
      const claims = token ? await ctx.jwt.verify(token) : false;
      if (claims && claims.kind === "status" && claims.page === page.id && claims.pv === page.passwordVersion) return;
    }
    if (pending) throw secondFactorRequired();
    // A feed reader with an old link learns that the link was replaced, not that it should type a password.
    if (key !== null) throw new HttpError(401, "STATUS_FEED_KEY_INVALID", "This feed link is not valid (it was replaced or turned off): copy the current one from the page's settings", { visibility: page.visibility });
    if (page.visibility === "password") throw new HttpError(401, "STATUS_PAGE_PASSWORD", "This status page needs its password", { visibility: "password" });
    throw new HttpError(401, "STATUS_PAGE_PRIVATE", "Sign in to see this status page", { visibility: "private" });
  }

  /** The view as JSON with its ETag (304 when unchanged); pages that are not public are never kept by shared caches. */
  async function respond(page: StoredPage, request: Request) {
    const view = await status.view(page.id);
    const gzip = acceptsGzip(request);
    const cache = cacheOf(page);
    // Vary: a shared cache keeps the plain and the gzip representation apart.
    const headers = { etag: gzip ? view.gzipEtag : view.etag, ...cache, vary: "vary" in cache ? `accept-encoding, ${cache.vary}` : "accept-encoding" };
    if (matches(request.headers.get("if-none-match"), [view.etag, view.gzipEtag])) return new Response(null, { status: 304, headers });
    const type = { "content-type": "application/json; charset=utf-8" };
    if (gzip) return new Response(view.gzip(), { headers: { ...headers, ...type, "content-encoding": "gzip" } });
    return new Response(view.body, { headers: { ...headers, ...type } });
  }

  const pageDoc = (summary: string) => ({ ...doc(summary, 401, 404), responses: { 304: { description: "Unchanged since the ETag sent in If-None-Match" } } });
  const slugParams = t.Object({ slug: t.String({ maxLength: 64 }) });
  const feedType = { "content-type": "application/atom+xml; charset=utf-8" };

  return new Elysia({ prefix: "/api/status", detail: { tags: ["status"] } })
    .use(session)
    // The default page — or, on a custom domain, the page of that domain.
    .get("/", async ({ request, verifySession, jwt, twoFactorPending }) => {
      const host = request.headers.get("host");
      const page = (host && (await status.byDomain(host))) || (await status.page(DEFAULT_PAGE_ID))!;
      await admit(page, request, { verifySession, jwt, twoFactorPending });
      return respond(page, request);
    }, { detail: pageDoc("The default status page, or the page of the custom domain asked (no sign-in for public pages; cached briefly, ETag)") })
    .get("/pages/:slug", async ({ params, request, verifySession, jwt, twoFactorPending }) => {
      const page = await bySlug(params.slug);
      await admit(page, request, { verifySession, jwt, twoFactorPending });
      return respond(page, request);
    }, { params: slugParams, detail: pageDoc("A status page by its address") })
    .post("/pages/:slug/unlock", async ({ params, body, request, server, jwt }) => {
      const page = await bySlug(params.slug);
      if (page.visibility !== "password" || !page.passwordHash) throw badRequest("STATUS_PAGE_NOT_LOCKED", "This status page has no password");
      const key = `${clientIp(request, server, trustProxy)}|${page.id}`;
      const at = Date.now();
      const tries = unlockAttempts.get(key);
      if (tries && at - tries.since < UNLOCK_WINDOW_MS && tries.count >= UNLOCK_ATTEMPTS) {
        throw new HttpError(429, "TOO_MANY_ATTEMPTS", "Too many wrong passwords: try again later", { retryAfter: Math.ceil((tries.since + UNLOCK_WINDOW_MS - at) / 1000) });
      }
      if (!(await Bun.password.verify(body.password, page.passwordHash))) {
        unlockAttempts.set(key, tries && at - tries.since < UNLOCK_WINDOW_MS ? { count: tries.count + 1, since: tries.since } : { count: 1, since: at });
        throw new HttpError(401, "STATUS_PAGE_WRONG_PASSWORD", "Wrong password");
      }
      unlockAttempts.delete(key);
      return { success: true, token: await jwt.sign({ kind: "status", page: page.id, pv: page.passwordVersion }) };
    }, { params: slugParams, body: t.Object({ password: t.String({ maxLength: 200 }) }), detail: doc("Unlock a password-protected status page: a token for x-status-token (or ?token=)", 401, 404, 429) })
    .get("/pages/:slug/feed.atom", async ({ params, request, verifySession, jwt, twoFactorPending }) => {
      const page = await bySlug(params.slug);
      const key = await admit(page, request, { verifySession, jwt, twoFactorPending }, true);
      const url = pageUrl(page, request);
      // A reader that takes the self link as the feed's address keeps the key it came with.
      const self = `${feedUrl(page, request, "atom")}${key === undefined ? "" : `?key=${encodeURIComponent(key)}`}`;
      return new Response(atomFeed((await status.view(page.id)).page, url, self, await feedLocale()), { headers: { ...feedType, ...cacheOf(page) } });
    }, { params: slugParams, detail: { ...doc("A status page's incidents and maintenance as an Atom feed (a page that is not public: ?key= its feed key)", 401, 404), responses: { 200: contentResponse("The feed", "application/atom+xml") } } })
    .get("/pages/:slug/feed.rss", async ({ params, request, verifySession, jwt, twoFactorPending }) => {
      const page = await bySlug(params.slug);
      await admit(page, request, { verifySession, jwt, twoFactorPending }, true);
      return new Response(rssFeed((await status.view(page.id)).page, pageUrl(page, request), await feedLocale()), { headers: { "content-type": "application/rss+xml; charset=utf-8", ...cacheOf(page) } });
    }, { params: slugParams, detail: { ...doc("A status page's incidents and maintenance as an RSS 2.0 feed (a page that is not public: ?key= its feed key)", 401, 404), responses: { 200: contentResponse("The feed", "application/rss+xml") } } })
    .get("/pages/:slug/summary.json", async ({ params, request, set, verifySession, jwt, twoFactorPending }) => {
      const page = await bySlug(params.slug);
      await admit(page, request, { verifySession, jwt, twoFactorPending });
      // A public page's summary keeps the API's no-store; another's says private too.
      if (page.visibility !== "public") Object.assign(set.headers, CREDENTIALED);
      return { success: true, summary: summary((await status.view(page.id)).page, pageUrl(page, request)) };
    }, { params: slugParams, detail: doc("A status page in brief for other tools: overall status, components, open incidents, maintenance", 401, 404) })
    .get("/badge/:file", async ({ params }) => {
      const id = /^(\d{1,15})\.svg$/.exec(params.file)?.[1];
      let monitor: StatusMonitor | undefined;
      // Only monitors on a public page have a badge: the others are not public.
      for (const page of id === undefined ? [] : await status.pages()) {
        if (page.visibility !== "public" || !page.monitorIds.includes(Number(id))) continue;
        monitor = (await status.view(page.id)).page.monitors.find((m) => m.id === Number(id));
        if (monitor) break;
      }
      if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found on a public status page");
      return new Response(badgeSvg(monitor), { headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": BADGE_CACHE } });
    }, { detail: { summary: "The SVG badge of a monitor on a public status page: /api/status/badge/<id>.svg", responses: { 200: contentResponse("The badge", "image/svg+xml") } } })
    .get("/config", async ({ request }) => ({ success: true, config: reply(await status.config(), request) }), { auth: "user", detail: doc("The status page configuration") })
    .put(
      "/config",
      async ({ body, request }) => {
        const monitorIds = [...new Set(body.monitorIds)];
        const agentIds = [...new Set(body.agentIds)];
        const unknownMonitor = await firstMissing(monitorIds, monitorExists);
        if (unknownMonitor !== undefined) throw badRequest("MONITOR_UNKNOWN", `Unknown monitor in the selection: ${unknownMonitor}`);
        const unknownAgent = await firstMissing(agentIds, agentExists);
        if (unknownAgent !== undefined) throw badRequest("AGENT_UNKNOWN", `Unknown agent in the selection: ${unknownAgent}`);
        const severity = body.announcement?.severity;
        if (severity !== undefined && !isSeverity(severity)) throw badRequest("VALIDATION", "Announcement severity must be info, warning or outage");
        const text = body.announcement?.text.trim() ?? "";
        if (body.announcement && !text) throw badRequest("VALIDATION", "Announcement text is required (or clear the announcement)");
        const saved = await status.save({
          title: body.title.trim(),
          description: body.description.trim(),
          monitorIds,
          agentIds,
          announcement: severity !== undefined && isSeverity(severity) ? { severity, text } : null,
        });
        return { success: true, message: "Status page configuration saved", config: reply(saved, request) };
      },
      { auth: "user", body: configBody, detail: doc("Save the status page configuration") },
    );
}
