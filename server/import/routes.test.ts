// POST /api/import/kuma/plan and /apply: the admin screen's import of the sample Kuma 2.5.3 database — the plan
// changes nothing, apply creates what the plan said (visible at once through the API, push URL included), applying
// again updates rather than duplicates; only admins may call them; a file that is not Kuma's is refused with 400.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { PublicMonitor } from "../monitors/public";
import { testApp } from "../test-support";
import { KUMA_FIXTURE_DB, kumaManifest as manifest } from "./kuma/fixture";
import type { ImportPlan } from "./kuma/section";

const kumaDb = () => new File([readFileSync(KUMA_FIXTURE_DB)], "kuma.db");

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const editor = await t.signUp("eddie");
  expect((await t.call("PUT", `/api/users/${editor.user.id}`, { token: admin.token, body: { username: "eddie", role: "editor" } })).status).toBe(200);
  const send = async (step: "plan" | "apply", token: string | undefined, file: File | null, history = false) => {
    const form = new FormData();
    if (file) form.set("file", file);
    form.set("history", String(history));
    const res = await t.app.handle(
      new Request(`http://localhost/api/import/kuma/${step}`, { method: "POST", body: form, headers: token ? { authorization: `Bearer ${token}` } : {} }),
    );
    return { status: res.status, body: (await res.json()) as { success: boolean; code?: string; message?: string; data: ImportPlan } };
  };
  const monitors = async () => (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: admin.token })).body.monitors;
  return { t, admin, editor, send, monitors };
}

describe("POST /api/import/kuma", () => {
  test("plan lists what would come across and changes nothing; apply creates it; again updates in place", async () => {
    const { admin, send, monitors } = await setup();
    const plan = await send("plan", admin.token, kumaDb());
    expect(plan.status).toBe(200);
    expect(plan.body.data.source).toMatchObject({ schema: "2.x", file: "kuma.db", label: "Uptime Kuma 2.x database (kuma.db)" });
    const planned = plan.body.data.items.filter((i) => i.kind === "monitor");
    expect(planned).toHaveLength(manifest.monitors.length);
    expect(planned.filter((i) => i.action === "create").length).toBeGreaterThan(0);
    // Kuma types Vigil has no check for are left out, each saying why.
    const sqlserver = planned.find((i) => i.name === manifest.monitors.find((m) => m.type === "sqlserver")!.name)!;
    expect(sqlserver.action).toBe("skip");
    // A note is a code with its values (the admin screen words it in the reader's language) and the English text.
    expect(sqlserver.notes).toEqual([{ code: "monitor.noCheck", values: { type: "sqlserver" }, text: "Vigil has no sqlserver check yet." }]);
    expect(await monitors()).toHaveLength(0);

    const applied = await send("apply", admin.token, kumaDb());
    expect(applied.status).toBe(200);
    const created = planned.filter((i) => i.action === "create").map((i) => i.name).sort();
    const after = await monitors();
    expect(after.map((m) => m.name).sort()).toEqual(created);

    // Kuma's push URL has Vigil's shape: the token came across, so a cron job keeps working.
    const pushKuma = manifest.monitors.find((m) => m.type === "push" && m.push_token)!;
    const push = after.find((m) => m.name === pushKuma.name)!;
    expect(push.pushToken).toBe(pushKuma.push_token);

    // The later types' secrets (passwords, a community, a connection string's password) are masked in the reply.
    const postgres = after.find((m) => m.type === "postgres")!;
    expect(postgres.settings).toMatchObject({ host: "127.0.0.1", username: "kuma_ro" });
    const reply = JSON.stringify(after);
    for (const secret of ["Pg-R3ad0nly", "My5ql-Pass", "R3dis-S3cret", "M0ngo-Pw", "mqttPw!77", "public-nw"]) expect({ secret, shown: reply.includes(secret) }).toEqual({ secret, shown: false });

    const again = await send("apply", admin.token, kumaDb());
    expect(again.status).toBe(200);
    expect(again.body.data.items.filter((i) => i.kind === "monitor" && i.action === "update").map((i) => i.name).sort()).toEqual(created);
    const twice = await monitors();
    expect(twice.map((m) => m.id).sort()).toEqual(after.map((m) => m.id).sort());
  });

  test("only admins; a file that is not Kuma's, or none, is refused with a clear 400", async () => {
    const { admin, editor, send } = await setup();
    expect((await send("plan", undefined, kumaDb())).status).toBe(401);
    expect((await send("plan", editor.token, kumaDb())).status).toBe(403);
    expect((await send("apply", editor.token, kumaDb())).status).toBe(403);
    const notKuma = await send("plan", admin.token, new File(["hello, not a database"], "kuma.db"));
    expect(notKuma.status).toBe(400);
    expect(notKuma.body.code).toBe("NOT_KUMA");
    const empty = await send("plan", admin.token, new File([], "kuma.db"));
    expect(empty.status).toBe(400);
    const none = await send("plan", admin.token, null);
    expect(none.status).toBe(400);
    expect(none.body.success).toBe(false);
  });
});
