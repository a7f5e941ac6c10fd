// Builds vigil-agent binaries into dist/agents: every release target (npm run build, npm run build:agents), or just
// linux-x64 and linux-arm64 (--linux; what npm start builds when they are missing). Each gets a .sha256 and a .gz that
// the server sends with Content-Encoding: gzip. Cross-compile runtimes come from the npm registry.
import { mkdirSync, renameSync } from "node:fs";
import { parseArgs } from "node:util";

export const LINUX_TARGETS = ["linux-x64", "linux-arm64"];
export const RELEASE_TARGETS = [...LINUX_TARGETS, "darwin-x64", "darwin-arm64", "windows-x64"];

/** One built file: what the build summary prints. */
export interface Built {
  file: string;
  bytes: number;
  sha256: string;
}

/** The size and sha256 of a file, for the build summary. */
export async function describeFile(file: string): Promise<Built> {
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  return { file, bytes: bytes.byteLength, sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") };
}

/** A table of what a build made: file, size, sha256. */
export function summary(built: Built[]): string {
  const width = Math.max(...built.map((b) => b.file.length));
  return built.map((b) => `${b.file.padEnd(width)}  ${(b.bytes / 1e6).toFixed(1).padStart(6)} MB  sha256 ${b.sha256}`).join("\n");
}

export async function buildAgents(targets: string[], outDir = "dist/agents"): Promise<Built[]> {
  mkdirSync(outDir, { recursive: true });
  return Promise.all(
    targets.map(async (target) => {
      const name = `vigil-agent-${target}${target.startsWith("windows") ? ".exe" : ""}`;
      const file = `${outDir}/${name}`;
      // Build beside the final name and rename at the end: a running server (npm start) never serves a half-written
      // binary, nor a binary with the previous build's checksum.
      const tmp = `${outDir}/.partial-${name}`; // keeps ".exe" last: bun appends it otherwise
      const proc = Bun.spawn(
        [process.execPath, "build", "--compile", "agent/main.ts", "--minify", `--target=bun-${target}`, "--outfile", tmp,
          "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"],
        { stdout: "ignore", stderr: "inherit" },
      );
      if ((await proc.exited) !== 0) throw new Error(`agent build for ${target} failed`);
      const bytes = new Uint8Array(await Bun.file(tmp).arrayBuffer());
      const sha = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
      await Bun.write(`${tmp}.sha256`, `${sha}  ${name}\n`);
      await Bun.write(`${tmp}.gz`, Bun.gzipSync(bytes, { level: 6 }));
      renameSync(`${tmp}.gz`, `${file}.gz`);
      renameSync(`${tmp}.sha256`, `${file}.sha256`);
      renameSync(tmp, file);
      return { file, bytes: bytes.byteLength, sha256: sha };
    }),
  );
}

if (import.meta.main) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { all: { type: "boolean" }, linux: { type: "boolean" } } });
  console.log(summary(await buildAgents(values.linux ? LINUX_TARGETS : RELEASE_TARGETS)));
}
