// What `npm run build` made (npm test builds before it runs these): both executables say package.json's version,
// every agent has the checksum file the installer verifies, and the Linux agents an xz copy of at most 40 MB.
// VIGIL_AGENTS_DIR checks agents built elsewhere (`bun scripts/build-agents.ts --outdir …`).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import pkg from "../package.json" with { type: "json" };
import { LINUX_TARGETS, RELEASE_TARGETS } from "./build-agents";
import { SERVER_RUNTIME_ARGS } from "./server-runtime";

const SERVER = "dist/vigil";
const AGENTS = process.env.VIGIL_AGENTS_DIR ?? "dist/agents";
const AGENT = `${AGENTS}/vigil-agent-linux-x64`;
const built = existsSync(SERVER) && existsSync(AGENT);

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const run = (file: string, ...args: string[]) => Bun.spawnSync([file, ...args], { stdout: "pipe", stderr: "pipe" }).stdout.toString().trim();

describe.skipIf(!built)("the build (after npm run build)", () => {
  test("vigil --version and vigil-agent --version agree with package.json", () => {
    expect(run(SERVER, "--version")).toBe(pkg.version);
    expect(run(AGENT, "--version")).toBe(pkg.version);
  });

  test("every release agent target is built, with a sha256 that matches it", async () => {
    for (const target of RELEASE_TARGETS) {
      const file = `${AGENTS}/vigil-agent-${target}${target.startsWith("windows") ? ".exe" : ""}`;
      expect(existsSync(file)).toBe(true);
      const [sum, name] = readFileSync(`${file}.sha256`, "utf8").trim().split(/\s+/);
      expect(name).toBe(file.split("/").pop()!);
      expect(sum).toBe(sha256(await Bun.file(file).bytes()));
    }
    // Reading and hashing five ~100 MB binaries took over 30 s once beside npm test's three browser workers.
  }, 120_000);

  test("each Linux agent has an xz copy of at most 40 MB, with its sha256, that unpacks to exactly the binary", async () => {
    for (const target of LINUX_TARGETS) {
      const file = `${AGENTS}/vigil-agent-${target}`;
      const xz = await Bun.file(`${file}.xz`).bytes();
      expect({ target, under40MB: xz.byteLength <= 40e6 }).toEqual({ target, under40MB: true });
      expect(readFileSync(`${file}.xz.sha256`, "utf8")).toBe(`${sha256(xz)}  vigil-agent-${target}.xz\n`);
      const unpacked = Bun.spawnSync(["xz", "--decompress", "--stdout", `${file}.xz`], { stdout: "pipe" }).stdout;
      expect(unpacked.byteLength).toBe(Bun.file(file).size);
      expect(sha256(unpacked)).toBe(readFileSync(`${file}.sha256`, "utf8").split(" ")[0]!);
    }
    // Unpacking two 110 MB binaries takes ~10 s alone, past a minute beside npm test's browser tests.
  }, 180_000);
});

test("from source, both say package.json's version", () => {
  expect(run(process.execPath, "server/main.ts", "--version")).toBe(pkg.version);
  expect(run(process.execPath, "agent/main.ts", "--version")).toBe(pkg.version);
});

test("npm start runs the server with the Bun flags the executable has baked in", () => {
  const start = pkg.scripts.start.split(" ");
  expect(start.slice(0, 1 + SERVER_RUNTIME_ARGS.length)).toEqual(["bun", ...SERVER_RUNTIME_ARGS]);
});
