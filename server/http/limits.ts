// Request limits shared by the server and the agent (which batches its reports under them). No imports: the agent
// bundles this file.

/** The largest request body the server reads; bigger ones get 413 BODY_TOO_LARGE, which states this number. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The one upload Vigil takes (an Uptime Kuma database, /api/import/kuma/*): larger ones go through `vigil import kuma`. */
export const MAX_UPLOAD_BYTES = 64 * MAX_BODY_BYTES;
/** The paths that take an upload (multipart/form-data, up to MAX_UPLOAD_BYTES). */
export const isUploadPath = (path: string) => path.startsWith("/api/import/");

/** The deepest nesting of arrays and objects a JSON body may have; deeper ones get 400 TOO_DEEP before parsing. */
export const MAX_JSON_DEPTH = 64;

/**
 * The path of a request URL without parsing it (`new URL` per request was a visible share of a busy server's CPU):
 * what follows the authority, up to the query string or fragment.
 */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  const q = url.indexOf("?", start);
  if (q >= 0) end = q;
  const h = url.indexOf("#", start);
  if (h >= 0 && h < end) end = h;
  return url.slice(start, end);
}
