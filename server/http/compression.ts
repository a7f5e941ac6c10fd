// gzip on the wire: whether a client takes it, replies from bodies kept in memory with their gzip made once, and the
// API's JSON compressed per request. One place for every route that compresses (UI files, API docs, status page,
// metrics, agent downloads, every JSON reply).
import { Elysia, StatusMap } from "elysia";

const answers = new Map<string, boolean>();

/**
 * Whether a request's Accept-Encoding takes gzip: named (or `*`) without `q=0`; a named gzip outranks `*`. Browsers
 * send one of a handful of values, so answers are remembered (a bounded map: odd headers cannot grow it).
 */
export function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding");
  if (!header) return false;
  let known = answers.get(header);
  if (known === undefined) {
    if (answers.size >= 64) answers.clear();
    answers.set(header, (known = parseAcceptsGzip(header)));
  }
  return known;
}

function parseAcceptsGzip(header: string): boolean {
  let star = false;
  for (const part of header.toLowerCase().split(",")) {
    const [coding, ...params] = part.split(";").map((s) => s.trim());
    const allowed = !params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
    if (coding === "gzip") return allowed;
    if (coding === "*") star = allowed;
  }
  return star;
}

/** A reply kept in memory: its bytes, their gzip (null when it would not be smaller), type, tag and caching. */
export interface MemoryFile {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer> | null;
  type: string;
  etag: string;
  cacheControl: string;
}

/** Builds a MemoryFile, compressing when `compress` (and when that pays). */
export function memoryFile(body: Uint8Array<ArrayBuffer>, type: string, cacheControl: string, compress = true): MemoryFile {
  const gzip = compress && body.byteLength > 512 ? Bun.gzipSync(body, { level: 9 }) : null;
  return { body, gzip: gzip && gzip.byteLength < body.byteLength ? gzip : null, type, etag: `"${Bun.hash(body).toString(36)}"`, cacheControl };
}

/** Answers with a MemoryFile: 304 for its tag, gzip when taken, no body for HEAD. */
export function sendMemoryFile(file: MemoryFile, request: Request): Response {
  const headers: Record<string, string> = {
    "content-type": file.type,
    "cache-control": file.cacheControl,
    etag: file.etag,
    vary: "accept-encoding",
  };
  if (request.headers.get("if-none-match") === file.etag) return new Response(null, { status: 304, headers });
  if (file.gzip && acceptsGzip(request)) {
    return new Response(request.method === "HEAD" ? null : file.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  }
  return new Response(request.method === "HEAD" ? null : file.body, { headers });
}

/** Replies smaller than this go as they are: gzip's header and a round trip of CPU would not pay. */
const MIN_GZIP_BYTES = 1024;
const encoder = new TextEncoder();

/**
 * gzip for every JSON (and text) reply a handler returns, when the client takes it: `GET /api/monitors` at 100 000
 * monitors is 106 MB of JSON and about a tenth of it gzipped. Level 4: most of level 9's gain at a fraction of its
 * CPU, as these bodies are made per request. Replies a route builds as a Response itself (UI files, downloads, feeds,
 * badges, metrics) keep their own encoding.
 */
export function gzipReplies() {
  // After the handler, not mapResponse: a mapResponse hook emptied the error replies of onRequest (a 413 for a body
  // too large went out without its JSON). Error replies are small; they go as they are.
  return new Elysia({ name: "gzip-replies" }).onAfterHandle({ as: "global" }, ({ request, responseValue, set }) => {
    if (request.method === "HEAD" || !acceptsGzip(request)) return;
    let text: string;
    if (typeof responseValue === "string") text = responseValue;
    else if (responseValue !== null && typeof responseValue === "object" && isPlain(responseValue)) text = JSON.stringify(responseValue);
    else return;
    const body = encoder.encode(text);
    if (body.byteLength < MIN_GZIP_BYTES) return;
    const type = set.headers["content-type"] ?? (typeof responseValue === "string" ? "text/plain; charset=utf-8" : "application/json");
    return new Response(Bun.gzipSync(body, { level: 4 }), {
      status: typeof set.status === "number" ? set.status : set.status ? StatusMap[set.status] : 200,
      headers: { ...(set.headers as Record<string, string>), "content-type": type, "content-encoding": "gzip", vary: "accept-encoding" },
    });
  });
}

/** A plain object or array (what Elysia would send as JSON), not a Response, stream, file or typed array. */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
