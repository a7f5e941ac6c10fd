/** This server's address for links handed out (agent install, status page): the configured public URL, else the one
 * this request came in on (through trusted proxies). */
export function serverUrl(request: Request, publicUrl: string | undefined, trustProxy: number): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, "");
  const url = new URL(request.url);
  if (trustProxy) {
    const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    if (proto === "http" || proto === "https") url.protocol = proto;
    if (host) url.host = host;
  }
  return url.origin;
}
