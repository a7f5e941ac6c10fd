import type { Server } from "bun";

/**
 * The caller's address. X-Forwarded-For is honoured only when Vigil is told it sits behind a proxy, since any
 * client can send that header. Requests handled without a socket (tests) count as "local".
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "local";
}
