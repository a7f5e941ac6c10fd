import type { Server } from "bun";

/**
 * The caller's address. X-Forwarded-For is honoured only when Vigil is told it sits behind `trustedProxies` proxies,
 * since any client can send that header: each proxy appends the address it was connected from, so the entry the
 * outermost trusted proxy added is `trustedProxies` from the right; entries left of it are the client's own words.
 * Requests handled without a socket (tests) count as "local".
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const entries = (request.headers.get("x-forwarded-for") ?? "").split(",").map((e) => e.trim()).filter(Boolean);
    if (entries.length > 0) return entries[Math.max(0, entries.length - trustedProxies)];
  }
  return server?.requestIP(request)?.address ?? "local";
}
