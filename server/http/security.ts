import { Elysia } from "elysia";
import { HttpError } from "./errors";
import { isUploadPath, MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_UPLOAD_BYTES, pathOf } from "./limits";

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "SAMEORIGIN",
  // sonner injects a <style> element, hence 'unsafe-inline' for styles only; scripts come from this origin alone.
  // Images may also come over https: a status page's logo may be a link to the operator's own (an image runs nothing).
  // blob: images are the page's own (object URLs only this origin's scripts make): the failure screenshots, fetched
  // with the session's token.
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; " +
    "connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'",
};

// States the limit so a client (the agent) can size its batches to it.
const uploadTooLarge = () =>
  new HttpError(413, "UPLOAD_TOO_LARGE", `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: import it from a terminal with vigil import kuma`, { maxBytes: MAX_UPLOAD_BYTES });
const tooLarge = () => new HttpError(413, "BODY_TOO_LARGE", "The request body is larger than 1 MB", { maxBytes: MAX_BODY_BYTES });

/**
 * Whether JSON text nests arrays/objects deeper than `limit`, by one linear scan before anything is parsed. Deep
 * bodies are how a 39 KB request once cost seconds and gigabytes (the validator's error formatting is quadratic in
 * the depth, and recursion overflows the stack): no route needs more than a few levels.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** Reads a body stream, giving up as soon as it passes `limit` bytes (chunked bodies carry no length up front). */
async function readCapped(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Security headers on every reply (no CORS headers at all: the UI is same-origin, and a browser on another site must
 * not read the API with a user's session); API replies are never stored by a cache (they carry tokens, credentials and
 * private data). Request bodies are JSON only (but for the one-click unsubscribe form), at most 1 MiB (checked before
 * they are read) and at most 64 levels deep (checked before they are parsed). The listening server's own cap is set
 * higher so that an oversized request still gets this JSON answer.
 */
export function security({ trustProxy = 0 }: { trustProxy?: number } = {}) {
  return new Elysia({ name: "security" })
    .onRequest(({ request, set }) => {
      Object.assign(set.headers, SECURITY_HEADERS);
      // Browsers honour HSTS only over HTTPS: sent when the request came over TLS, directly or through a trusted proxy
      // that says so. Two years, this host only (subdomains may be other people's services).
      if (request.url.startsWith("https:") || (trustProxy > 0 && request.headers.get("x-forwarded-proto")?.split(",")[0].trim() === "https")) {
        set.headers["strict-transport-security"] = "max-age=63072000";
      }
      if (pathOf(request.url).startsWith("/api/")) set.headers["cache-control"] = "no-store";
      const upload = isUploadPath(pathOf(request.url));
      if (Number(request.headers.get("content-length") ?? 0) > (upload ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES)) {
        // The unread body is still on its way: close the connection rather than keep it (and a shutdown) waiting.
        set.headers["connection"] = "close";
        throw upload ? uploadTooLarge() : tooLarge();
      }
    })
    .onParse({ as: "global" }, async ({ request, contentType }) => {
      // Bodiless requests (a DELETE, say) parse to an empty object whatever their content type.
      if (!request.body) return {};
      // Push calls (cron jobs, backup scripts) may POST anything, a log say: their body is never read.
      if (pathOf(request.url).startsWith("/api/push/")) return {};
      // A mail client's one-click unsubscribe (RFC 8058) posts the form "List-Unsubscribe=One-Click": the one form read.
      if (pathOf(request.url) === "/api/status/subscriptions/unsubscribe" && contentType.split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded") {
        return Object.fromEntries(new URLSearchParams(await readCapped(request, MAX_BODY_BYTES)));
      }
      // The import screen's file (server/import/routes.ts): a form with the file and its options.
      if (isUploadPath(pathOf(request.url)) && contentType.split(";")[0]!.trim().toLowerCase() === "multipart/form-data") {
        return Object.fromEntries((await request.formData()).entries());
      }
      if (!contentType.toLowerCase().includes("json")) {
        throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the request body as application/json");
      }
      const text = await readCapped(request, MAX_BODY_BYTES);
      if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
        throw new HttpError(400, "TOO_DEEP", `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
      try {
        // Clients send the JSON content type on every call, bodiless DELETEs included.
        return text.trim() === "" ? {} : JSON.parse(text);
      } catch {
        throw new HttpError(400, "BAD_JSON", "The request body is not valid JSON");
      }
    });
}
