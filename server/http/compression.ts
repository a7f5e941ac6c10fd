// gzip on the wire: whether a client takes it, and replies from bodies kept in memory with their gzip made once.
// One place for every route that compresses (UI files, API docs, status page, metrics, agent downloads).

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
