import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import { notFound } from "../http/errors";
import { contentResponse, doc, docReply } from "../http/openapi";
import { createBody, listPageQuery, manualBody, monitorIdParams, pushParams, pushQuery, recentChecksQuery, screenshotParams, seriesQuery, updateBody } from "./schemas";
import type { RecentCheck } from "./public";
import type { MonitorService } from "./service";
import { monitorView } from "./viewer";
import type { EventBus } from "../events";
import { createListPages, listVersion } from "./list-page";
import { parseListView } from "./list-view";
import { monitorTypes } from "./type-catalog";

export interface MonitorRouteDeps {
  monitors: MonitorService;
  /** The event bus: a list ordering is remade after a change (list-page.ts). */
  events: EventBus;
  session: ReturnType<typeof sessions>;
}

const monitorNotFound = () => notFound("MONITOR_NOT_FOUND", "Monitor not found");
const screenshotDoc = doc("One failure screenshot of a browser monitor, by its check's start time (as the list gives it); same readers as the list", 404);

/**
 * Every signed-in user shares the instance's monitors: all calls need a session, none needs admin but /stats. Every
 * monitor in a reply is the caller's role's view of it (viewer.ts), as on /api/live.
 */
export function monitorRoutes({ monitors, events, session }: MonitorRouteDeps) {
  const pages = createListPages({ list: monitors.listFields, get: monitors.get, version: listVersion(events) });
  return new Elysia({ prefix: "/api", detail: { tags: ["monitors"] } })
    .use(session)
    .get("/monitors", ({ user }) => ({ success: true, monitors: monitors.list().map((m) => monitorView(user.role, m)) }), {
      auth: "user",
      detail: docReply("List the monitors with their current status (viewers: without header values, body, URL password, push token)", 200, "MonitorListReply"),
    })
    .get("/monitors/names", ({ user }) => ({ success: true, monitors: monitors.names().map((m) => monitorView(user.role, m)) }), {
      auth: "user",
      detail: docReply("Every monitor's id, name, type, target, group, tags and whether it is active: for choosing monitors (a tenth of GET /api/monitors' bytes)", 200, "MonitorNamesReply"),
    })
    .get(
      "/monitors/page",
      ({ user, query, request }) => {
        // Validated above; read as the screen reads its own URL (the same parameters), defaults included.
        const view = parseListView(new URL(request.url).search);
        const collapsed = query.collapsed ? query.collapsed.split(",").map(Number) : [];
        return { success: true, ...pages.page(user.role, { view, collapsed, offset: query.offset ?? 0, limit: query.limit ?? 100 }) };
      },
      {
        auth: "user",
        query: listPageQuery,
        detail: docReply(
          "One page of the monitor list as the screen shows it: searched (q: every word in the name or target), filtered by status and tags (tag=a&tag=b: all of them), sorted (sort, dir; none: what needs attention first), groups followed by their members unless collapsed; with the total, counts by status and the tags in use",
          200,
          "MonitorPageReply",
        ),
      },
    )
    .post(
      "/monitors",
      async ({ body, set, user }) => {
        const monitor = await monitors.create(body);
        set.status = 201;
        return { success: true, message: "Monitor created", monitor: monitorView(user.role, monitor) };
      },
      { auth: "user", body: createBody, detail: docReply("Create a monitor", 201, "MonitorReply") },
    )
    .get("/monitors/ping-support", () => ({ success: true, method: monitors.pingMethod() }), {
      auth: "user",
      detail: doc("How ping monitors reach their hosts on this server: socket (ICMP datagram sockets), program (the system's ping), or null (they cannot)"),
    })
    .get("/monitors/types", () => ({ success: true, types: monitorTypes() }), {
      auth: "user",
      detail: docReply("The monitor types: each later type's settings as a JSON Schema (secrets marked), whether agents can run it, and why this server cannot (e.g. no Chromium)", 200, "MonitorTypesReply"),
    })
    // Scheduler and writer figures for operators and the benchmark.
    .get("/monitors/stats", async () => ({ success: true, stats: await monitors.stats() }), { auth: "admin", detail: doc("Scheduler and writer figures") })
    .get(
      "/monitors/:id",
      ({ params, user }) => {
        const monitor = monitors.get(params.id);
        if (!monitor) throw monitorNotFound();
        return { success: true, monitor: monitorView(user.role, monitor) };
      },
      { auth: "user", params: monitorIdParams, detail: docReply("A monitor", 200, "MonitorReply") },
    )
    .get(
      "/monitors/:id/members",
      ({ params, user }) => {
        if (!monitors.typeOf(params.id)) throw monitorNotFound();
        // A group's page reads its few members here rather than every monitor (at 100 000 monitors that was ~100 MB).
        const members = monitors.groups.members(params.id).flatMap((id) => monitors.get(id) ?? []);
        members.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
        return { success: true, monitors: members.map((m) => monitorView(user.role, m)) };
      },
      { auth: "user", params: monitorIdParams, detail: docReply("A group's direct members by name, with their current status (none for a monitor that is not a group)", 200, "MonitorListReply") },
    )
    .put(
      "/monitors/:id",
      async ({ params, body, user }) => {
        const monitor = await monitors.update(params.id, body);
        if (!monitor) throw monitorNotFound();
        return { success: true, message: "Monitor updated", monitor: monitorView(user.role, monitor) };
      },
      { auth: "user", params: monitorIdParams, body: updateBody, detail: docReply("Update a monitor", 200, "MonitorReply") },
    )
    .delete(
      "/monitors/:id",
      async ({ params }) => {
        if (!(await monitors.remove(params.id))) throw monitorNotFound();
        return { success: true, message: "Monitor deleted" };
      },
      { auth: "user", params: monitorIdParams, detail: doc("Delete a monitor and its history") },
    )
    .post(
      "/monitors/:id/check",
      async ({ params, user }) => {
        const done = await monitors.checkNow(params.id);
        if (!done) throw monitorNotFound();
        return { success: true, message: done.result.status === "up" ? "Check passed" : "Check failed", result: done.result, monitor: monitorView(user.role, done.monitor) };
      },
      { auth: "user", params: monitorIdParams, detail: docReply("Check a monitor now", 200, "CheckReply") },
    )
    .post(
      "/monitors/:id/manual",
      ({ params, body }) => {
        const result = monitors.setManual(params.id, body.status, body.message ?? null);
        if (!result) throw monitorNotFound();
        return { success: true, message: result.status === "up" ? "Set up" : "Set down", result };
      },
      { auth: "user", params: monitorIdParams, body: manualBody, detail: docReply("Set a manual monitor up or down (recorded and notified as a check)", 200, "ManualReply", 404, 409) },
    )
    .get(
      "/monitors/checks/recent",
      async ({ query }) => {
        if (!query.ids) return { success: true, checks: await monitors.allRecentChecks() };
        // The monitors named (the list's rows in view); an id of no monitor is left out.
        const checks: Record<number, RecentCheck[]> = await monitors.recentChecksOf(query.ids);
        return { success: true, checks };
      },
      { auth: "user", query: recentChecksQuery, detail: doc("The latest checks of every monitor, or of the monitors named by ?ids=1,2,3") },
    )
    .get(
      "/monitors/:id/checks",
      async ({ params }) => {
        const checks = await monitors.recentChecks(params.id);
        if (!checks) throw monitorNotFound();
        return { success: true, checks };
      },
      { auth: "user", params: monitorIdParams, detail: doc("A monitor's latest checks") },
    )
    .get(
      "/monitors/:id/history",
      async ({ params }) => {
        if (!monitors.get(params.id)) throw monitorNotFound();
        return { success: true, history: await monitors.monitorHistory(params.id) };
      },
      { auth: "user", params: monitorIdParams, detail: doc("A monitor's 24-hour and 30-day figures and status bars") },
    )
    .post(
      "/monitors/:id/push-token",
      async ({ params, user }) => {
        const monitor = await monitors.regeneratePushToken(params.id);
        if (!monitor) throw monitorNotFound();
        return { success: true, message: "Push URL replaced", monitor: monitorView(user.role, monitor) };
      },
      { auth: "user", params: monitorIdParams, detail: docReply("Replace a push monitor's push URL (the old one stops working)", 200, "MonitorReply") },
    )
    .get(
      "/monitors/:id/screenshots",
      async ({ params }) => {
        const screenshots = await monitors.screenshots(params.id);
        if (!screenshots) throw monitorNotFound();
        return { success: true, screenshots };
      },
      {
        auth: "user",
        params: monitorIdParams,
        // Whoever may read the monitor's checks (viewers too, as the monitor page shows them): a screenshot shows the
        // same page the check loaded, which its error already describes.
        detail: docReply("A browser monitor's failure screenshots (latest first, the latest 20 within the raw retention): each check's start time and error; viewers may read them as they read the checks", 200, "ScreenshotsReply", 404),
      },
    )
    .get(
      "/monitors/:id/screenshots/:time",
      async ({ params }) => {
        const png = await monitors.screenshot(params.id, params.time);
        if (png === undefined) throw monitorNotFound();
        if (png === null) throw notFound("SCREENSHOT_NOT_FOUND", "No screenshot of this monitor at this time");
        return new Response(png, { headers: { "content-type": "image/png", "cache-control": "private, max-age=86400" } });
      },
      { auth: "user", params: screenshotParams, detail: { ...screenshotDoc, responses: { ...screenshotDoc.responses, 200: contentResponse("The PNG", "image/png") } } },
    )
    .get(
      "/monitors/:id/series",
      async ({ params, query }) => {
        if (!monitors.get(params.id)) throw monitorNotFound();
        return { success: true, series: await monitors.series(params.id, query.range ?? "24h") };
      },
      { auth: "user", params: monitorIdParams, query: seriesQuery, detail: doc("A monitor's response-time and uptime series") },
    );
}

/**
 * `/api/push/{token}` for push monitors: no session (the token is the credential), GET or POST, `status=up|down`,
 * `msg=` and `ping=` (ms) in the query string. A request body is never read (scripts may send anything).
 */
export function pushRoutes({ monitors }: Pick<MonitorRouteDeps, "monitors">) {
  const handle = ({ params, query }: { params: { token: string }; query: { status?: "up" | "down"; msg?: string; ping?: number } }) => {
    const result = monitors.push(params.token, { status: query.status, msg: query.msg, ping: query.ping ?? null });
    return { success: true, message: result.status === "up" ? "Push recorded: up" : "Push recorded: down" };
  };
  const detail = doc("Record a push (push monitors)", 404, 409, 429);
  // Uptime Kuma's push URL ends in `ping=` until the job fills it in: an empty ping is no ping, so jobs moved over
  // from Kuma keep working (anything else that is not a whole number is still refused).
  const transform = ({ query }: { query: { ping?: unknown } }) => {
    if (query.ping === "") delete query.ping;
  };
  return new Elysia({ prefix: "/api", detail: { tags: ["monitors"] } })
    .get("/push/:token", handle, { params: pushParams, query: pushQuery, transform, detail })
    .post("/push/:token", handle, { params: pushParams, query: pushQuery, transform, parse: "none", detail });
}
