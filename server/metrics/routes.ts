import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import { contentResponse } from "../http/openapi";
import { renderMetrics, type MetricsSources } from "./collect";
import { acceptsGzip } from "../http/compression";
import { CONTENT_TYPE } from "./exposition";

export interface MetricsRouteDeps extends MetricsSources {
  session: ReturnType<typeof sessions>;
}

/**
 * GET /metrics: the Prometheus text exposition, at the root where scrapers look for it. It names every monitor and
 * agent, so it takes a credential like the API (Prometheus sends an API token: `authorization: { credentials: … }`).
 */
export function metricsRoutes({ session, ...sources }: MetricsRouteDeps) {
  return new Elysia().use(session).get(
    "/metrics",
    async ({ request }) => {
      const text = await renderMetrics(sources);
      const headers: Record<string, string> = { "content-type": CONTENT_TYPE, "cache-control": "no-store", vary: "accept-encoding" };
      // Prometheus asks for gzip: 10 000 monitors are ~2 MB of text and ~0.3 MB gzipped, for ~3 ms at level 1.
      if (text.length > 4096 && acceptsGzip(request)) {
        headers["content-encoding"] = "gzip";
        return new Response(Bun.gzipSync(Buffer.from(text), { level: 1 }), { headers });
      }
      return new Response(text, { headers });
    },
    {
      auth: "user",
      detail: {
        tags: ["metrics"],
        summary: "Prometheus metrics: monitors, agents, scheduler lateness, outbox backlog, process (text exposition 0.0.4)",
        responses: { 200: contentResponse("The text exposition (gzipped when the scraper accepts gzip)", CONTENT_TYPE) },
      },
    },
  );
}
