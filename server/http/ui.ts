import { Elysia } from "elysia";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { memoryFile, sendMemoryFile, type MemoryFile } from "./compression";
import { notFound } from "./errors";


const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
  ".map": "application/json",
};
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".webmanifest", ".svg", ".txt", ".map"]);
// Bun names built chunks and assets `<name>-<8 hex/base36 chars>.<ext>`: those never change, so cache them for good.
const HASHED = /-[a-z0-9]{8}\.[a-z0-9]+$/i;

/** Where the built UI is: embedded in the executable (`--asset dist/ui` lands at `<root>/ui`), else dist/ui. */
export function defaultUiDir(): string {
  return Bun.isStandaloneExecutable ? join(import.meta.dir, "ui") : resolve(import.meta.dir, "../../dist/ui");
}

/** Reads every UI file once, compressing what compresses, so requests are served from memory. */
export function loadUiFiles(dir: string): Map<string, MemoryFile> {
  const files = new Map<string, MemoryFile>();
  if (!existsSync(dir)) return files;
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    const full = join(dir, rel);
    if (!statSync(full).isFile()) continue;
    const ext = extname(rel).toLowerCase();
    const urlPath = "/" + rel.split("\\").join("/");
    const cacheControl = HASHED.test(rel) ? "public, max-age=31536000, immutable" : "no-cache";
    files.set(urlPath, memoryFile(new Uint8Array(readFileSync(full)), TYPES[ext] ?? "application/octet-stream", cacheControl, COMPRESSIBLE.has(ext)));
  }
  return files;
}


/**
 * Serves the single-page UI: real files by path, and index.html for every other page path so deep links work.
 * Unknown /api paths get the JSON 404; a missing file with an extension gets a plain 404.
 */
export function uiRoutes(dir: string, { live = false } = {}) {
  let files = loadUiFiles(dir);
  let index = files.get("/index.html");
  // `npm run dev` rebuilds the UI under a running server: reload when index.html changes.
  let loadedAt = live && index ? statSync(join(dir, "index.html")).mtimeMs : 0;
  const refresh = () => {
    const mtime = existsSync(join(dir, "index.html")) ? statSync(join(dir, "index.html")).mtimeMs : 0;
    if (mtime === loadedAt) return;
    files = loadUiFiles(dir);
    index = files.get("/index.html");
    loadedAt = mtime;
  };
  return new Elysia({ name: "ui" })
    .all("/api/*", () => {
      throw notFound("NOT_FOUND", "No such API endpoint");
    })
    .get("/*", ({ request, path }) => {
      if (path.startsWith("/api/")) throw notFound("NOT_FOUND", "No such API endpoint");
      if (live) refresh();
      // A page's path has no extension, but for an alert's acknowledgement link (/ack/<signed token>, dots and all).
      const file = files.get(path) ?? (extname(path) && !path.startsWith("/ack/") ? undefined : index);
      if (!file) {
        if (!index && !extname(path)) {
          return new Response("The Vigil UI is not built. Run `npm run build:ui`.", { status: 503 });
        }
        return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
      }
      return sendMemoryFile(file, request);
    });
}
