// GET /api/backup: an admin downloads a copy of the SQLite database that opens and holds the accounts; nobody else
// may; on PostgreSQL it answers 409 pointing at pg_dump.
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../db/sqlite";
import { testEngine } from "../db/test-db";
import { testApp } from "../test-support";
import type { CreatedApiToken } from "../tokens/public";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "vigil-backup-test-"));
  temps.push(dir);
  return dir;
};

async function setup(overrides: Parameters<typeof testApp>[0] = {}) {
  const t = await testApp(overrides);
  const admin = await t.signUp("alice");
  const editor = await t.signUp("eddie");
  const viewer = await t.signUp("vera");
  for (const [who, role] of [[editor, "editor"], [viewer, "viewer"]] as const) {
    const res = await t.call("PUT", `/api/users/${who.user.id}`, { token: admin.token, body: { username: who.user.username, role } });
    expect(res.status).toBe(200);
  }
  const apiToken = async (scope: string) =>
    (await t.call<CreatedApiToken>("POST", "/api/tokens", { token: admin.token, body: { name: scope, scope } })).body.secret;
  const download = (token?: string) =>
    t.app.handle(new Request("http://localhost/api/backup", { headers: token ? { authorization: `Bearer ${token}` } : {} }));
  return { ...t, admin, editor, viewer, apiToken, download };
}

/** Saves a downloaded body and opens it as SQLite: the accounts it holds. */
async function accountsIn(res: Response): Promise<{ username: string; role: string }[]> {
  const file = join(tempDir(), "download.db");
  writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
  const copy = new Database(file, { readonly: true });
  try {
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    return copy.query("SELECT username, role FROM users ORDER BY id").all() as { username: string; role: string }[];
  } finally {
    copy.close();
  }
}

describe.skipIf(testEngine !== "sqlite")("on SQLite", () => {
  test("an admin downloads a consistent copy that opens as a SQLite database holding every account", async () => {
    const { download, admin } = await setup();
    const res = await download(admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="vigil-\d{8}-\d{6}\.db"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const length = Number(res.headers.get("content-length"));
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    expect(bytes.byteLength).toBe(length);
    expect(new TextDecoder().decode(bytes.subarray(0, 16))).toBe("SQLite format 3\0");
    expect(await accountsIn(res)).toEqual([
      { username: "alice", role: "admin" },
      { username: "eddie", role: "editor" },
      { username: "vera", role: "viewer" },
    ]);
  });

  test("editors, viewers, strangers and API tokens short of full access are refused; a full-access admin token may", async () => {
    const { download, editor, viewer, apiToken } = await setup();
    expect((await download(editor.token)).status).toBe(403);
    expect((await download(viewer.token)).status).toBe(403);
    const anonymous = await download();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    for (const scope of ["read", "write"]) {
      const res = await download(await apiToken(scope));
      expect([scope, res.status]).toEqual([scope, 403]);
      expect(await res.json()).toMatchObject({ success: false, code: "TOKEN_SCOPE" });
    }
    const full = await download(await apiToken("full"));
    expect(full.status).toBe(200);
    expect((await accountsIn(full)).map((u) => u.username)).toContain("alice");
  });

  test("on a database file: the copy is taken in the data dir and nothing of it is left there", async () => {
    const dataDir = tempDir();
    const db = await openSqlite(join(dataDir, "vigil.db"));
    try {
      const { download, admin } = await setup({ db });
      const before = readdirSync(dataDir).sort();
      const res = await download(admin.token);
      expect(res.status).toBe(200);
      expect(readdirSync(dataDir).sort()).toEqual(before); // gone already, while the download streams
      expect((await accountsIn(res)).map((u) => u.username)).toEqual(["alice", "eddie", "vera"]);
      expect(readdirSync(dataDir).sort()).toEqual(before);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(testEngine !== "postgres")("on PostgreSQL", () => {
  test("an admin is told to use pg_dump (409); others are refused as on SQLite", async () => {
    const { download, admin, viewer } = await setup();
    const res = await download(admin.token);
    expect(res.status).toBe(409);
    const body = (await res.json()) as { success: boolean; code: string; message: string };
    expect(body).toMatchObject({ success: false, code: "BACKUP_POSTGRES" });
    expect(body.message).toContain("pg_dump");
    expect((await download(viewer.token)).status).toBe(403);
    expect((await download()).status).toBe(401);
  });
});
