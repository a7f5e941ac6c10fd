// What `npm run build` made (npm test builds before it runs these): both executables say package.json's version, and
// every agent has the checksum file the installer verifies.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import pkg from "../package.json" with { type: "json" };
import { RELEASE_TARGETS } from "./build-agents";

const SERVER = "dist/vigil";
const AGENT = "dist/agents/vigil-agent-linux-x64";
const built = existsSync(SERVER) && existsSync(AGENT);

const run = (file: string, ...args: string[]) => Bun.spawnSync([file, ...args], { stdout: "pipe", stderr: "pipe" }).stdout.toString().trim();

describe.skipIf(!built)("the build (after npm run build)", () => {
  test("vigil --version and vigil-agent --version agree with package.json", () => {
    expect(run(SERVER, "--version")).toBe(pkg.version);
    expect(run(AGENT, "--version")).toBe(pkg.version);
  });

  test("every release agent target is built, with a sha256 that matches it", async () => {
    for (const target of RELEASE_TARGETS) {
      const file = `dist/agents/vigil-agent-${target}${target.startsWith("windows") ? ".exe" : ""}`;
      expect(existsSync(file)).toBe(true);
      const [sum, name] = readFileSync(`${file}.sha256`, "utf8").trim().split(/\s+/);
      expect(name).toBe(file.split("/").pop()!);
      expect(sum).toBe(new Bun.CryptoHasher("sha256").update(await Bun.file(file).arrayBuffer()).digest("hex"));
    }
  });
});

test("from source, both say package.json's version", () => {
  expect(run(process.execPath, "server/main.ts", "--version")).toBe(pkg.version);
  expect(run(process.execPath, "agent/main.ts", "--version")).toBe(pkg.version);
});
