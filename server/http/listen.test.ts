// Issue 37.4: a second Vigil started on a port already in use was accepted too (Elysia's SO_REUSEPORT default), and
// connections alternated between two databases — one still on its first run, open to a stranger's first sign-up.
// Checked with the server operators run (the executable when built): the second must end at once, in one line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shippedCommand, startShippedServer, type ShippedServer } from "../shipped-server";

let first: ShippedServer;
beforeAll(async () => {
  first = await startShippedServer();
}, 30_000);
afterAll(() => first.stop());

/** /api/config's firstRun, over a new connection each time (the kernel chooses a listener per connection). */
async function firstRun(): Promise<boolean> {
  const res = await fetch(first.base + "/api/config", { headers: { connection: "close" } });
  return ((await res.json()) as { firstRun: boolean }).firstRun;
}

test("a second Vigil on a port in use says so in one line and exits at once, touching nothing; the first serves on", async () => {
  const registered = await fetch(first.base + "/api/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "alice", password: "correct horse" }),
  });
  expect(registered.status).toBe(201);
  expect(await firstRun()).toBe(false);

  const port = Number(new URL(first.base).port);
  const dir = mkdtempSync(join(tmpdir(), "vigil-second-"));
  const started = Date.now();
  const second = Bun.spawn([...shippedCommand(), "--port", String(port), "--data-dir", join(dir, "data")], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NODE_ENV: "" },
  });
  const code = await Promise.race([second.exited, Bun.sleep(15_000).then(() => null)]);
  try {
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await new Response(second.stderr).text()).trim()).toBe(
      `vigil: port ${port} on 127.0.0.1 is already in use (another Vigil or another program); stop it or pick another --port`,
    );
    expect(await new Response(second.stdout).text()).not.toContain("listening on");
    // Nothing created, claimed or migrated for the second data dir.
    expect(existsSync(join(dir, "data"))).toBe(false);
    for (let i = 0; i < 20; i++) expect(await firstRun()).toBe(false);
  } finally {
    if (code === null) second.kill("SIGKILL");
    await second.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
