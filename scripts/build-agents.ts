// Builds vigil-agent binaries into dist/agents: linux-x64 and linux-arm64 always (npm run build), and with --all
// also darwin-x64, darwin-arm64 and windows-x64 (npm run build:agents). Each gets a .sha256 and a .gz that the
// server sends with Content-Encoding: gzip. Cross-compile runtimes come from the npm registry.
import { mkdirSync, renameSync } from "node:fs";
import { parseArgs } from "node:util";

export const LINUX_TARGETS = ["linux-x64", "linux-arm64"];
const RELEASE = [...LINUX_TARGETS, "darwin-x64", "darwin-arm64", "windows-x64"];

export async function buildAgents(targets: string[], outDir = "dist/agents"): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  await Promise.all(
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
      console.log(`built ${file} (${(bytes.byteLength / 1e6).toFixed(1)} MB)`);
    }),
  );
}

if (import.meta.main) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { all: { type: "boolean" } } });
  await buildAgents(values.all ? RELEASE : LINUX_TARGETS);
}
