// The import as an operator runs it: `vigil import kuma <kuma data dir> --yes` (the built executable when there is
// one, else the source) into a fresh data dir, then `vigil` started on it serves the imported monitors — a Kuma push
// URL answers on Vigil — and a second import changes nothing it should not (no duplicates).
import { afterEach, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shippedCommand, startShippedServer, type ShippedServer } from "../../shipped-server";
import { KUMA_FIXTURE_DB, kumaManifest } from "./fixture";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function runImport(kumaDir: string, dataDir: string): { code: number; out: string } {
  const run = Bun.spawnSync([...shippedCommand(), "import", "kuma", kumaDir, "--yes", "--data-dir", dataDir], {
    env: { ...process.env, NODE_ENV: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: run.exitCode ?? -1, out: run.stdout.toString() + run.stderr.toString() };
}

test("vigil import kuma brings the sample Kuma database into a data dir that vigil then serves", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-kuma-shipped-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const kumaDir = join(dir, "kuma");
  const dataDir = join(dir, "data");
  // The data dir does not exist yet: the import makes it, as the server would on its first start.
  Bun.spawnSync(["mkdir", "-p", kumaDir]);
  copyFileSync(KUMA_FIXTURE_DB, join(kumaDir, "kuma.db"));

  const first = runImport(kumaDir, dataDir);
  expect(first.out).toContain("Uptime Kuma");
  expect(first.code).toBe(0);

  const server: ShippedServer = await startShippedServer({ dataDir });
  cleanup.push(() => server.stop());
  const call = async (path: string, init: RequestInit = {}) => fetch(server.base + path, init);
  const reg = await call("/api/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "alice", password: "correct horse", confirmPassword: "correct horse" }),
  });
  expect(reg.status).toBe(201);
  const login = (await (await call("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "alice", password: "correct horse" }) })).json()) as { token: string };
  const list = (await (await call("/api/monitors", { headers: { authorization: `Bearer ${login.token}` } })).json()) as { monitors: { id: number; name: string; type: string; pushToken: string | null; status: string }[] };
  const names = new Set(list.monitors.map((m) => m.name));
  for (const kuma of kumaManifest.monitors.filter((m) => ["http", "keyword", "port", "ping", "dns", "push", "group"].includes(m.type))) {
    expect(names.has(kuma.name)).toBe(true);
  }

  // Kuma's push URL, unchanged but for the host name.
  const push = kumaManifest.monitors.find((m) => m.type === "push" && m.push_token)!;
  const res = await call(`/api/push/${push.push_token}?status=up&msg=OK&ping=12`);
  expect(res.status).toBe(200);

  await server.stop();
  cleanup.pop();
  const again = runImport(kumaDir, dataDir);
  expect(again.code).toBe(0);
  const server2 = await startShippedServer({ dataDir });
  cleanup.push(() => server2.stop());
  const login2 = (await (await fetch(server2.base + "/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "alice", password: "correct horse" }) })).json()) as { token: string };
  const list2 = (await (await fetch(server2.base + "/api/monitors", { headers: { authorization: `Bearer ${login2.token}` } })).json()) as { monitors: { id: number }[] };
  expect(list2.monitors.map((m) => m.id).sort()).toEqual(list.monitors.map((m) => m.id).sort());
}, 60_000);
