// The address policy inside the page. Each check's Chromium context sends every request (documents, each redirect hop,
// frames, scripts, fetches, WebSockets) through a small forward proxy of its own on 127.0.0.1, which judges the host
// like the monitor's own URL (reach.ts) and connects to the address it judged — Chromium never resolves a name itself,
// so a name cannot be judged on one answer and reached on another. Playwright's context.route cannot do this: it does
// not see redirects (Chromium follows them unrouted) and lets Chromium resolve names again after the judgement.
import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Resolve, TargetPolicy } from "../../../net/targets";
import { describeError } from "../network-errors";
import { reachHost, type Reach } from "../reach";

export interface Guard {
  /** For the context's `proxy` option. */
  proxy: { server: string; bypass: string; username: string; password: string };
  /** Why a request to this host failed here, if one did: the policy refused it, or its connection failed. */
  problem(host: string): string | undefined;
  close(): void;
}

const hostOf = (authority: string): { host: string; port: number } | null => {
  const m = /^\[?([^\]]*?)\]?:(\d{1,5})$/.exec(authority);
  return m ? { host: m[1]!.toLowerCase(), port: Number(m[2]) } : null;
};

export async function startGuard(policy: TargetPolicy, resolve: Resolve, seconds: number): Promise<Guard> {
  const verdicts = new Map<string, Promise<Reach>>();
  const problems = new Map<string, string>();
  const failed = (host: string, e: unknown) => problems.set(host, describeError(e, seconds));
  const sockets = new Set<Socket>();
  const judge = async (host: string): Promise<Reach> => {
    let verdict = verdicts.get(host);
    if (!verdict) verdicts.set(host, (verdict = reachHost(host, policy, resolve)));
    const reach = await verdict;
    if (reach.error !== undefined) problems.set(host, reach.error);
    return reach;
  };
  const username = "vigil";
  const password = randomBytes(16).toString("hex");
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const authorised = (req: IncomingMessage) => req.headers["proxy-authorization"] === expected;

  // Plain HTTP: "GET http://host:port/path" — forwarded to the judged address, the Host header kept.
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorised(req)) return res.writeHead(407, { "proxy-authenticate": 'Basic realm="vigil"' }).end();
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return res.writeHead(400).end();
    }
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const reach = await judge(host);
    if (reach.error !== undefined) return res.writeHead(403, { "content-type": "text/plain" }).end(reach.error);
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest({ host: reach.address, port: Number(url.port) || 80, method: req.method, path: url.pathname + url.search, headers, agent: false }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on("error", (e) => {
      failed(host, e);
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  // HTTPS and WebSockets: "CONNECT host:port" — a tunnel to the judged address (TLS stays between Chromium and the site).
  server.on("connect", async (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    if (!authorised(req)) return socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="vigil"\r\n\r\n');
    const target = hostOf(req.url ?? "");
    if (!target) return socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    const reach = await judge(target.host);
    if (reach.error !== undefined) return socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    const upstream = connect(target.port, reach.address, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => socket.destroy());
    upstream.on("error", (e) => {
      failed(target.host, e);
      socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    });
    socket.on("close", () => upstream.destroy());
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as { port: number };
  return {
    // "<-loopback>": Chromium would otherwise connect to localhost and 127.0.0.1 itself, unjudged.
    proxy: { server: `http://127.0.0.1:${port}`, bypass: "<-loopback>", username, password },
    problem: (host) => problems.get(host.replace(/^\[|\]$/g, "").toLowerCase()),
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
