// A local HTTP target for the monitor tests: every behaviour a monitored endpoint can have, on 127.0.0.1:<free port>.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const handler = (seen: Seen[]) => async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
  seen.push({ method: req.method, path: url.pathname + url.search, headers: Object.fromEntries(req.headers), body });
  const [, first, arg] = url.pathname.split("/");
  switch (first) {
    case "ok":
      return new Response("ok");
    case "status":
      return new Response(`status ${arg}`, { status: Number(arg) });
    case "slow":
      await Bun.sleep(Number(arg));
      return new Response("finally");
    case "redirect":
      return new Response(null, { status: 302, headers: { location: "/ok" } });
    case "loop":
      return new Response(null, { status: 302, headers: { location: "/loop" } });
    case "body":
      // The body the test asks for: /body?text=...
      return new Response("x".repeat(Number(url.searchParams.get("pad") ?? 0)) + (url.searchParams.get("text") ?? ""), { headers: { "content-type": "text/plain; charset=utf-8" } });
    case "json":
      return new Response(url.searchParams.get("doc") ?? "", { headers: { "content-type": "application/json" } });
    case "echo":
      return Response.json({ method: req.method, headers: Object.fromEntries(req.headers), body });
    case "endless": {
      // Never ends: 16 KB chunks for as long as anyone reads.
      const chunk = new Uint8Array(16 * 1024).fill(120);
      return new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }), { headers: { "content-type": "text/plain" } });
    }
    case "big":
      return new Response(new Uint8Array(10 * 1024 * 1024).fill(121));
    case "trickle": {
      // Headers, then a byte now and then, never finishing.
      let timer: ReturnType<typeof setInterval>;
      return new Response(
        new ReadableStream({
          start(c) {
            timer = setInterval(() => {
              try {
                c.enqueue(new Uint8Array([46]));
              } catch {
                clearInterval(timer);
              }
            }, 200);
          },
          cancel: () => clearInterval(timer),
        }),
      );
    }
    default:
      return new Response("not here", { status: 404 });
  }
};

/** Starts the target; `url(path)` builds addresses on it; `seen` records every request. */
export function startTarget(tls?: { cert: string; key: string }) {
  const seen: Seen[] = [];
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler(seen), idleTimeout: 30, ...(tls ? { tls } : {}) });
  const base = `${tls ? "https" : "http"}://127.0.0.1:${server.port}`;
  return {
    server,
    seen,
    port: server.port!,
    url: (path: string) => base + path,
    stop: () => server.stop(true),
  };
}

/** A port nothing listens on (bound, then released). */
export function closedPort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** A self-signed certificate for 127.0.0.1/localhost valid for `days`, made with openssl; null when it is missing. */
export function selfSignedCert(days = 30): { cert: string; key: string } | null {
  const dir = mkdtempSync(join(tmpdir(), "vigil-cert-"));
  try {
    const res = spawnSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", String(days),
      "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ], { stdio: "ignore" });
    if (res.status !== 0) return null;
    return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
