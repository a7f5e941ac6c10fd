import { Elysia } from "elysia";
import type { Logger } from "../log";
import { clientIp } from "./client-ip";
import { pathOf } from "./limits";

// Routes that answer machines many times a minute: logged at debug level so the log stays readable.
const QUIET = new Set(["/api/agents/report", "/healthz", "/metrics", "/api/status"]);

/**
 * The path as logged: no query string (it may carry a token), and any long random-looking segment (a push or
 * download token in a path) replaced, so the log never holds a credential.
 */
export function loggedPath(pathname: string): string {
  const path = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
  return path.replace(/\/[A-Za-z0-9_~.-]{24,}(?=\/|$)/g, "/<redacted>");
}

/**
 * One structured line per request: method, path, status, duration, client address. API calls at info level; the
 * UI's files and the machine-facing routes above at debug. Never headers, bodies or query strings.
 */
export function requestLog(log: Logger, trustProxy: number) {
  const started = new WeakMap<Request, { at: number; ip: string; path: string; quiet: boolean }>();
  return new Elysia({ name: "request-log" })
    // The address is read here: after the response the socket may be gone. A request whose line would not be
    // written (a machine-facing route below debug level: the status page's crowd, agent reports) costs nothing more.
    .onRequest(({ request, server }) => {
      const path = pathOf(request.url);
      const quiet = QUIET.has(path) || !path.startsWith("/api/") || path.startsWith("/api/status/badge/");
      if (!log.enabled(quiet ? "debug" : "info")) return;
      started.set(request, { at: performance.now(), ip: clientIp(request, server, trustProxy), path, quiet });
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      const begun = started.get(request);
      if (!begun) return;
      const fields = {
        method: request.method,
        path: loggedPath(begun.path),
        status: typeof set.status === "number" ? set.status : 200,
        ms: Math.round((performance.now() - begun.at) * 10) / 10,
        ip: begun.ip,
      };
      if (begun.quiet) log.debug("request", fields);
      else log.info("request", fields);
    });
}
