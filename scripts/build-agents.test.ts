// npm start builds the agents in the background (scripts/start.ts): a SIGTERM to it must not leave that build's xz
// running on its own. The fixture is start.ts with a slow xz in place of the agent build.
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const dirs: string[] = [];
const strays: number[] = [];
afterEach(() => {
  for (const pid of strays.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Running, not a zombie waiting for a parent that never reaps it (PID 1 in a container may not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Direct children of a process, and what each runs. */
function children(pid: number): { pid: number; command: string }[] {
  if (!existsSync(`/proc/${pid}/task`)) return [];
  return readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/))
    .filter(Boolean)
    .map(Number)
    .map((child) => ({ pid: child, command: existsSync(`/proc/${child}/cmdline`) ? readFileSync(`/proc/${child}/cmdline`, "utf8") : "" }));
}

test.skipIf(!Bun.which("xz"))("SIGTERM to npm start ends the background agent build's xz with the server", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-xz-"));
  dirs.push(dir);
  // 16 MB that do not compress: xz -9 needs ten seconds or more on it.
  const big = join(dir, "vigil-agent-linux-arm64");
  writeFileSync(big, new Uint8Array(await Bun.file("/dev/urandom").slice(0, 16e6).arrayBuffer()));
  const fixture = join(dir, "start.ts");
  writeFileSync(
    fixture,
    `await import(${JSON.stringify(join(ROOT, "server/main.ts"))});\n` +
      `const { writeXz } = await import(${JSON.stringify(join(ROOT, "scripts/build-agents.ts"))});\n` +
      `void writeXz(${JSON.stringify(big)}, "linux-arm64");\n`,
  );
  const server = spawn(process.execPath, [fixture, "--port", "0", "--data-dir", join(dir, "data"), "--jwt-secret", "x".repeat(40)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  server.stdout!.on("data", (c: Buffer) => (log += c));
  server.stderr!.on("data", (c: Buffer) => (log += c));
  const exited = new Promise<number | null>((ok) => server.once("exit", (code) => ok(code)));
  try {
    let xz: number | undefined;
    for (let waited = 0; waited < 20_000 && (xz === undefined || !log.includes("listening on")); waited += 100) {
      await Bun.sleep(100);
      xz ??= children(server.pid!).find((c) => c.command.includes(big))?.pid;
    }
    expect({ listening: log.includes("listening on"), xz: xz !== undefined }).toEqual({ listening: true, xz: true });
    strays.push(xz!);
    expect(alive(xz!)).toBe(true);

    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    // The kill is sent on the way out; give it a moment to land.
    for (let waited = 0; waited < 2000 && alive(xz!); waited += 50) await Bun.sleep(50);
    expect(alive(xz!)).toBe(false);
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
  }
}, 30_000);
