// Builds vigil-agent binaries into dist/agents (or --outdir): every release target (npm run build, npm run
// build:agents), or just linux-x64 and linux-arm64 (--linux; what npm start builds when they are missing). Each gets a
// .sha256 and a .gz that the server sends with Content-Encoding: gzip; the Linux ones also an .xz (35-37 MB instead
// of 52 MB gzipped: the Bun runtime inside is most of the file), which install.sh fetches when the host has xz.
// Cross-compile runtimes come from the npm registry.
import type { Subprocess } from "bun";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";

export const LINUX_TARGETS = ["linux-x64", "linux-arm64"];
export const RELEASE_TARGETS = [...LINUX_TARGETS, "darwin-x64", "darwin-arm64", "windows-x64"];

/** One built file: what the build summary prints. */
export interface Built {
  file: string;
  bytes: number;
  sha256: string;
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** The size and sha256 of a file, for the build summary. */
export async function describeFile(file: string): Promise<Built> {
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  return { file, bytes: bytes.byteLength, sha256: sha256(bytes) };
}

/** A table of what a build made: file, size, sha256. */
export function summary(built: Built[]): string {
  const width = Math.max(...built.map((b) => b.file.length));
  return built.map((b) => `${b.file.padEnd(width)}  ${(b.bytes / 1e6).toFixed(1).padStart(6)} MB  sha256 ${b.sha256}`).join("\n");
}

/**
 * The compilers and xz still running. They end with this process, however it ends: npm start and npm run dev build in
 * the background and leave with process.exit on SIGTERM, which would leave them running on their own (xz for minutes).
 */
const running = new Set<Subprocess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function spawnTracked(cmd: string[], options: Parameters<typeof Bun.spawn>[1]): Subprocess {
  const child = Bun.spawn(cmd, options);
  running.add(child);
  void child.exited.then(() => running.delete(child));
  return child;
}

/** For a build run on its own: SIGINT and SIGTERM exit through process.exit, so the exit hook above ends the children. */
export function exitOnSignals() {
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
}

/**
 * xz options per target: preset 9 (a 64 MiB window: the whole runtime is one match space). x64 first runs the x86
 * branch filter, which turns relative call addresses into absolute ones that repeat (3 % smaller); arm64 has no such
 * filter, as its one needs xz 5.4, which hosts of 2022 (Debian 11, Ubuntu 22.04) lack.
 */
const XZ_OPTIONS: Record<string, string[]> = {
  "linux-x64": ["--x86", "--lzma2=preset=9"],
  "linux-arm64": ["-9"],
};

/** Writes `${file}.xz` and its `.xz.sha256` (renamed into place, the checksum last); null without xz on this machine. */
export async function writeXz(file: string, target: string): Promise<Built | null> {
  const xz = Bun.which("xz");
  if (!xz) {
    console.warn(`xz not found: ${file} ships without its .xz copy (install xz-utils for the lighter download)`);
    return null;
  }
  const name = basename(file);
  const tmp = join(dirname(file), `.partial-${name}.xz`);
  const proc = spawnTracked([xz, "--compress", "--stdout", ...XZ_OPTIONS[target]!, file], { stdout: Bun.file(tmp), stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`xz of ${file} failed`);
  const built = await describeFile(tmp);
  await Bun.write(`${tmp}.sha256`, `${built.sha256}  ${name}.xz\n`);
  renameSync(tmp, `${file}.xz`);
  renameSync(`${tmp}.sha256`, `${file}.xz.sha256`);
  return { ...built, file: `${file}.xz` };
}

export async function buildAgents(targets: string[], outDir = "dist/agents"): Promise<Built[]> {
  mkdirSync(outDir, { recursive: true });
  const built = await Promise.all(
    targets.map(async (target) => {
      const name = `vigil-agent-${target}${target.startsWith("windows") ? ".exe" : ""}`;
      const file = `${outDir}/${name}`;
      // Build beside the final name and rename at the end: a running server (npm start) never serves a half-written
      // binary, nor a binary with the previous build's checksum.
      const tmp = `${outDir}/.partial-${name}`; // keeps ".exe" last: bun appends it otherwise
      const proc = spawnTracked(
        [process.execPath, "build", "--compile", "agent/main.ts", "--minify", `--target=bun-${target}`, "--outfile", tmp,
          "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"],
        { stdout: "ignore", stderr: "inherit" },
      );
      if ((await proc.exited) !== 0) throw new Error(`agent build for ${target} failed`);
      const bytes = new Uint8Array(await Bun.file(tmp).arrayBuffer());
      const sha = sha256(bytes);
      await Bun.write(`${tmp}.sha256`, `${sha}  ${name}\n`);
      await Bun.write(`${tmp}.gz`, Bun.gzipSync(bytes, { level: 6 }));
      // The previous build's .xz would decompress to a binary that fails the new checksum: gone before the new one is in.
      for (const stale of [`${file}.xz.sha256`, `${file}.xz`]) rmSync(stale, { force: true });
      renameSync(`${tmp}.gz`, `${file}.gz`);
      renameSync(`${tmp}.sha256`, `${file}.sha256`);
      renameSync(tmp, file);
      // xz takes a minute or more per target: the binary and its gzip transfer are on offer meanwhile.
      const xz = XZ_OPTIONS[target] ? await writeXz(file, target) : null;
      return [{ file, bytes: bytes.byteLength, sha256: sha }, ...(xz ? [xz] : [])];
    }),
  );
  return built.flat();
}

if (import.meta.main) {
  exitOnSignals();
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { all: { type: "boolean" }, linux: { type: "boolean" }, outdir: { type: "string", default: "dist/agents" } },
  });
  console.log(summary(await buildAgents(values.linux ? LINUX_TARGETS : RELEASE_TARGETS, values.outdir)));
}
