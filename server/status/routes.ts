// /api/status: the public page (no sign-in; cached, ETag / 304), its badges, and its configuration (signed in).
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { acceptsGzip } from "../http/compression";
import { badRequest, notFound } from "../http/errors";
import { contentResponse, doc } from "../http/openapi";
import { serverUrl } from "../http/server-url";
import { badgeSvg } from "./badge";
import { ANNOUNCEMENT_MAX, ANNOUNCEMENT_SEVERITIES, STATUS_DESCRIPTION_MAX, STATUS_ITEMS_MAX, STATUS_TITLE_MAX, type AnnouncementSeverity, type StatusPageConfig } from "./public";
import type { StatusService } from "./service";
import type { StoredConfig } from "./store";

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

export interface StatusRouteDeps {
  status: StatusService;
  session: ReturnType<typeof sessions>;
  monitorExists: (id: number) => boolean | Promise<boolean>;
  agentExists: (id: number) => boolean | Promise<boolean>;
  publicUrl?: string;
  trustProxy: number;
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

export function statusRoutes({ status, session, monitorExists, agentExists, publicUrl, trustProxy }: StatusRouteDeps) {
  const reply = (config: StoredConfig, request: Request): StatusPageConfig => ({ ...config, publicUrl: `${serverUrl(request, publicUrl, trustProxy)}/status` });

  return new Elysia({ prefix: "/api/status", detail: { tags: ["status"] } })
    .use(session)
    .get("/", async ({ request }) => {
      const view = await status.view();
      const gzip = acceptsGzip(request);
      // Vary: a shared cache keeps the plain and the gzip representation apart.
      const headers = { etag: gzip ? view.gzipEtag : view.etag, "cache-control": PAGE_CACHE, vary: "accept-encoding" };
      if (matches(request.headers.get("if-none-match"), [view.etag, view.gzipEtag])) return new Response(null, { status: 304, headers });
      const type = { "content-type": "application/json; charset=utf-8" };
      if (gzip) return new Response(view.gzip(), { headers: { ...headers, ...type, "content-encoding": "gzip" } });
      return new Response(view.body, { headers: { ...headers, ...type } });
    }, { detail: { ...doc("The public status page (no sign-in; cached briefly, ETag)"), responses: { 304: { description: "Unchanged since the ETag sent in If-None-Match" } } } })
    .get("/badge/:file", async ({ params }) => {
      const id = /^(\d{1,15})\.svg$/.exec(params.file)?.[1];
      const monitor = id === undefined ? undefined : (await status.view()).page.monitors.find((m) => m.id === Number(id));
      // Only monitors on the public page have a badge: the others are not public.
      if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found on the status page");
      return new Response(badgeSvg(monitor), { headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": BADGE_CACHE } });
    }, { detail: { summary: "The SVG badge of a monitor on the status page: /api/status/badge/<id>.svg", responses: { 200: contentResponse("The badge", "image/svg+xml") } } })
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
