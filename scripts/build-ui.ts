// Builds the web UI: ui/index.html (React + Tailwind) → dist/ui, then copies ui/public/* to dist/ui's root so
// /sw.js, /manifest.webmanifest and /icons/* are served at the site root.
// Usage: bun scripts/build-ui.ts   (or import { buildUi } from "./build-ui")
import tailwind from "bun-plugin-tailwind";
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pngToIco } from "./favicon";

const ROOT = resolve(import.meta.dir, "..");

export interface BuildUiOptions {
  /** Output directory; default dist/ui. */
  outdir?: string;
  /** Minify (default true). */
  minify?: boolean;
  /** Print a summary (default true). */
  log?: boolean;
}

export interface BuildUiResult {
  outdir: string;
  files: { path: string; bytes: number }[];
  ms: number;
}

/**
 * Links to files of ui/public, added to the built index.html. They are not in ui/index.html because Bun's HTML
 * bundler tries to resolve (and hash) every linked file, and these must keep their root paths.
 */
const PUBLIC_LINKS = [
  '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
  '<link rel="icon" href="/icons/icon-192.png" type="image/png" sizes="192x192">',
  '<link rel="apple-touch-icon" href="/icons/icon-192.png">',
  '<link rel="manifest" href="/manifest.webmanifest">',
].join("");

/** Every file under dir, recursively, relative to it. */
function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((rel) => statSync(join(dir, rel)).isFile()).sort();
}

export async function buildUi(options: BuildUiOptions = {}): Promise<BuildUiResult> {
  const started = performance.now();
  const outdir = resolve(ROOT, options.outdir ?? "dist/ui");
  const log = options.log ?? true;
  rmSync(outdir, { recursive: true, force: true });

  const result = await Bun.build({
    entrypoints: [join(ROOT, "ui/index.html")],
    outdir,
    target: "browser",
    format: "esm",
    splitting: true, // each lazy page becomes its own chunk
    minify: options.minify ?? true,
    sourcemap: "none",
    publicPath: "/", // deep links (/users/3) must load /chunk-x.js, not ./chunk-x.js
    naming: { entry: "[name].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [tailwind],
  });
  if (!result.success) {
    for (const message of result.logs) console.error(message);
    throw new Error("UI build failed");
  }

  const indexPath = join(outdir, "index.html");
  const html = readFileSync(indexPath, "utf8");
  if (!html.includes("</head>")) throw new Error("UI build: index.html has no </head>");
  writeFileSync(indexPath, html.replace("</head>", `${PUBLIC_LINKS}</head>`));

  // Static files served at the root as they are.
  const publicDir = join(ROOT, "ui/public");
  if (existsSync(publicDir)) cpSync(publicDir, outdir, { recursive: true });
  writeFileSync(join(outdir, "favicon.ico"), pngToIco(new Uint8Array(readFileSync(join(publicDir, "icons/icon-192.png")))));

  // A new build id in sw.js makes browsers install a new worker, which drops the previous build's cache.
  const swPath = join(outdir, "sw.js");
  if (existsSync(swPath)) {
    const index = readFileSync(indexPath);
    const buildId = Bun.hash(index).toString(36);
    writeFileSync(swPath, readFileSync(swPath, "utf8").replace("__VIGIL_BUILD__", buildId));
  }

  const files = listFiles(outdir).map((path) => ({ path, bytes: statSync(join(outdir, path)).size }));
  const ms = Math.round(performance.now() - started);
  if (log) {
    const total = files.reduce((sum, f) => sum + f.bytes, 0);
    console.log(`UI built in ${ms} ms: ${files.length} files, ${(total / 1024).toFixed(0)} KiB → ${outdir}`);
  }
  return { outdir, files, ms };
}

if (import.meta.main) {
  try {
    await buildUi();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
