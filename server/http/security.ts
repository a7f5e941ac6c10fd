import { Elysia } from "elysia";
import { HttpError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "SAMEORIGIN",
  // sonner injects a <style> element, hence 'unsafe-inline' for styles only; scripts come from this origin alone.
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'",
};

const tooLarge = () => new HttpError(413, "BODY_TOO_LARGE", "The request body is larger than 1 MB");

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
 * Security headers on every reply; request bodies are JSON only and at most 1 MiB, checked before they are read.
 * The listening server's own cap is set higher so that an oversized request still gets this JSON answer.
 */
export function security() {
  return new Elysia({ name: "security" })
    .onRequest(({ request, set }) => {
      Object.assign(set.headers, SECURITY_HEADERS);
      if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
    })
    .onParse({ as: "global" }, async ({ request, contentType }) => {
      // Bodiless requests (a DELETE, say) parse to an empty object whatever their content type.
      if (!request.body) return {};
      if (!contentType.toLowerCase().includes("json")) {
        throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the request body as application/json");
      }
      const text = await readCapped(request, MAX_BODY_BYTES);
      try {
        // Clients send the JSON content type on every call, bodiless DELETEs included.
        return text.trim() === "" ? {} : JSON.parse(text);
      } catch {
        throw new HttpError(400, "BAD_JSON", "The request body is not valid JSON");
      }
    });
}
