// The status benchmark's load generator (scripts/bench/status.ts): a crowd of keep-alive clients on one URL, run in
// processes of their own (this file, spawned with --crowd) so the generator's CPU is not the server's; and the
// reference page server (--reference-server), a bare Bun.serve answering with the same bytes.
import { parseArgs } from "node:util";

/** This file, to spawn as a crowd process or the reference server. */
export const CROWD_SCRIPT = import.meta.path;

export interface CrowdOptions {
  clients: number;
  procs: number;
  client: "socket" | "fetch";
}

// Read only when this file is the process's entry (imported by status.ts, argv is status.ts's).
const { values: args } = parseArgs({
  args: import.meta.main ? process.argv.slice(2) : [],
  options: {
    // Run as one crowd process against --url, printing its results as JSON.
    crowd: { type: "boolean", default: false },
    url: { type: "string" },
    clients: { type: "string", default: "1" },
    "etag-clients": { type: "string" },
    duration: { type: "string", default: "30" },
    client: { type: "string", default: "socket" },
    // Serve this file as the reference page (a bare Bun.serve), until killed.
    "reference-server": { type: "string" },
  },
});

// ── One crowd process ──────────────────────────────────────────────────────────────────────────────

export interface CrowdKind {
  latencies: number[];
  ok: number;
  notModified: number;
  other: number;
  errors: number;
  /** Body bytes received (as sent: compressed when gzip). */
  bytes: number;
}
interface CrowdResult {
  plain: CrowdKind;
  etag: CrowdKind;
  elapsed: number;
  /** CPU seconds this process used while the crowd ran. */
  cpu: number;
}

// What a browser sends (a reload of the page's data), so the server parses a realistic request.
const BROWSER_HEADERS: Record<string, string> = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36",
  accept: "application/json",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "zh-CN,zh;q=0.9,en;q=0.8",
};

/** One client with fetch: a tab reloading as soon as the previous answer is in (fetch keeps the connection alive). */
async function fetchClient(url: string, revalidate: boolean, end: number, k: CrowdKind) {
  let tag: string | null = null;
  while (performance.now() < end) {
    const start = performance.now();
    try {
      // decompress: false counts the bytes on the wire and leaves inflating (a browser's cost) out of the generator.
      const res: Response = await fetch(url, { headers: { ...BROWSER_HEADERS, ...(tag ? { "if-none-match": tag } : {}) }, decompress: false } as RequestInit);
      k.bytes += (await res.arrayBuffer()).byteLength;
      k.latencies.push(performance.now() - start);
      if (res.status === 200) {
        k.ok++;
        if (revalidate) tag = res.headers.get("etag");
      } else if (res.status === 304) k.notModified++;
      else k.other++;
    } catch {
      k.errors++;
      await Bun.sleep(10); // a refused connection must not spin
    }
  }
}

/**
 * The same client on a raw keep-alive socket: HTTP/1.1 written and read by hand (Content-Length bodies only, as
 * Vigil sends them), like wrk. Bun's fetch costs the generator about a core at this rate, on a machine whose cores
 * the server needs too; this costs a fraction of it, so the numbers say more about the server.
 */
function socketClient(url: URL, revalidate: boolean, end: number, k: CrowdKind): Promise<void> {
  const latin1 = new TextDecoder("latin1"); // one char per byte: offsets in the head are byte offsets
  const head0 = `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` + Object.entries(BROWSER_HEADERS).map(([n, v]) => `${n}: ${v}\r\n`).join("");
  return new Promise((resolve) => {
    let tag: string | null = null;
    let head = ""; // the reply's head so far
    let remaining = -1; // body bytes still to come; -1 while the head is being read
    let status = 0;
    let started = 0;
    let inFlight = false;
    const next = (socket: Socket) => {
      if (performance.now() >= end) {
        socket.end();
        return;
      }
      started = performance.now();
      inFlight = true;
      socket.write(head0 + (tag ? `If-None-Match: ${tag}\r\n` : "") + "\r\n");
    };
    const connect = () => {
      if (performance.now() >= end) return resolve();
      head = "";
      remaining = -1;
      Bun.connect({
        hostname: url.hostname,
        port: Number(url.port),
        socket: {
          open: next,
          data(socket, chunk) {
            let off = 0;
            while (off < chunk.length) {
              if (remaining < 0) {
                const at = chunk.indexOf("\r\n\r\n", off);
                if (head === "" && at >= 0) {
                  head = latin1.decode(chunk.subarray(off, at)); // the usual case: the whole head in this chunk
                  off = at + 4;
                } else {
                  // The head spans chunks: gather it as text until its end shows.
                  const before = head.length;
                  head += latin1.decode(chunk.subarray(off));
                  const headEnd = head.indexOf("\r\n\r\n");
                  if (headEnd < 0) return;
                  off += headEnd + 4 - before;
                  head = head.slice(0, headEnd);
                }
                status = Number(head.slice(9, 12));
                if (/\r\ntransfer-encoding:/i.test(head)) {
                  console.error("the socket client reads Content-Length replies only; use --client fetch");
                  process.exit(1);
                }
                remaining = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
                if (revalidate && status === 200) tag = /\r\netag: *([^\r]*)/i.exec(head)?.[1] ?? null;
              }
              const take = Math.min(remaining, chunk.length - off);
              remaining -= take;
              off += take;
              k.bytes += take;
              if (remaining === 0) {
                k.latencies.push(performance.now() - started);
                if (status === 200) k.ok++;
                else if (status === 304) k.notModified++;
                else k.other++;
                inFlight = false;
                head = "";
                remaining = -1;
                next(socket);
              }
            }
          },
          close() {
            if (inFlight) k.errors++;
            inFlight = false;
            setTimeout(connect, performance.now() < end ? 10 : 0);
          },
          error() {},
        },
      }).catch(() => {
        k.errors++;
        setTimeout(connect, 10);
      });
    };
    connect();
  });
}
type Socket = Parameters<NonNullable<Parameters<typeof Bun.connect>[0]["socket"]["open"]>>[0];

async function crowd(url: string, clients: number, etagClients: number, seconds: number, viaFetch: boolean): Promise<CrowdResult> {
  const kind = (): CrowdKind => ({ latencies: [], ok: 0, notModified: 0, other: 0, errors: 0, bytes: 0 });
  const result = { plain: kind(), etag: kind() };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const clientsDone = Promise.all(
    Array.from({ length: clients }, (_, i) => {
      const revalidate = i < etagClients;
      const k = revalidate ? result.etag : result.plain;
      return viaFetch ? fetchClient(url, revalidate, end, k) : socketClient(new URL(url), revalidate, end, k);
    }),
  );
  // Bounded even if a connection hangs: what is still in flight 5 s after the end is left (the process exits).
  await Promise.race([clientsDone, Bun.sleep(seconds * 1000 + 5000)]);
  const cpu = process.cpuUsage(cpu0);
  return { ...result, elapsed: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

if (import.meta.main && args.crowd) {
  const r = await crowd(args.url!, Number(args.clients), Number(args["etag-clients"] ?? 0), Number(args.duration), args.client === "fetch");
  // Rounded to 10 µs: enough for percentiles, and a smaller message to the parent.
  for (const k of [r.plain, r.etag]) k.latencies = k.latencies.map((v) => Math.round(v * 100) / 100);
  await Bun.write(Bun.stdout, JSON.stringify(r));
  process.exit(0);
}

// The reference: the same page bytes from a bare Bun.serve (no framework, no database, a fixed tag), in its own
// process. What the crowd gets from it is the most this machine and this load generator allow.
if (import.meta.main && args["reference-server"]) {
  const bytes = new Uint8Array(await Bun.file(args["reference-server"]).arrayBuffer());
  // Blobs, as Vigil keeps them: a Response shares a Blob's bytes instead of copying them.
  const body = new Blob([bytes]);
  const gzipped = new Blob([Bun.gzipSync(bytes)]);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const gzip = (req.headers.get("accept-encoding") ?? "").includes("gzip");
      const headers = { etag: gzip ? '"ref-gzip"' : '"ref"', "cache-control": "public, max-age=5", vary: "accept-encoding" };
      const tag = req.headers.get("if-none-match");
      if (tag === '"ref"' || tag === '"ref-gzip"') return new Response(null, { status: 304, headers });
      const type = { "content-type": "application/json; charset=utf-8" };
      return gzip ? new Response(gzipped, { headers: { ...headers, ...type, "content-encoding": "gzip" } }) : new Response(body, { headers: { ...headers, ...type } });
    },
  });
  console.log(`listening on http://127.0.0.1:${server.port}`);
  await new Promise(() => {}); // until the main run kills it
}

// ── Run from the benchmark ───────────────────────────────────────────────────────────────────────────────────

type Merged = CrowdKind;
export type { Merged };
export interface CrowdSummary {
  plain: Merged;
  etag: Merged;
  all: Merged;
  seconds: number;
  /** Each crowd process's CPU, % of one core. */
  clientCpu: number[];
}

function merge(kinds: CrowdKind[]): Merged {
  const sum = (f: (k: CrowdKind) => number) => kinds.reduce((s, k) => s + f(k), 0);
  const latencies = kinds.flatMap((k) => k.latencies).sort((a, b) => a - b);
  return { latencies, ok: sum((k) => k.ok), notModified: sum((k) => k.notModified), other: sum((k) => k.other), errors: sum((k) => k.errors), bytes: sum((k) => k.bytes) };
}

/** The crowd on `url` for `seconds`: `clients` clients (half revalidating) split over `procs` processes. */
export async function runCrowd(url: string, seconds: number, { clients: CLIENTS, procs: CLIENT_PROCS, client: CLIENT }: CrowdOptions): Promise<CrowdSummary> {
  const etagClients = Math.floor(CLIENTS / 2);
  const procs = Array.from({ length: CLIENT_PROCS }, (_, p) => {
    const share = (n: number) => Math.floor((n * (p + 1)) / CLIENT_PROCS) - Math.floor((n * p) / CLIENT_PROCS);
    const proc = Bun.spawn(
      [process.execPath, CROWD_SCRIPT, "--crowd", "--client", CLIENT, "--url", url, "--clients", String(share(CLIENTS)),
        "--etag-clients", String(share(etagClients)), "--duration", String(seconds)],
      { stdout: "pipe", stderr: "inherit" },
    );
    return { proc, out: new Response(proc.stdout).text() };
  });
  const results: CrowdResult[] = [];
  for (const { proc, out } of procs) {
    const text = await out;
    if ((await proc.exited) !== 0) throw new Error(`crowd process failed: ${text.slice(0, 500)}`);
    results.push(JSON.parse(text) as CrowdResult);
  }
  return {
    plain: merge(results.map((r) => r.plain)),
    etag: merge(results.map((r) => r.etag)),
    all: merge(results.flatMap((r) => [r.plain, r.etag])),
    seconds: Math.max(...results.map((r) => r.elapsed)),
    clientCpu: results.map((r) => (r.cpu / r.elapsed) * 100),
  };
}
