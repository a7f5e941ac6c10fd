// maintenance: through the API (both engines): round trip into an empty instance, apply twice = nothing, one changed
// field, prune only managed, drift, invalid entries with line and field.
import { describe, expect, test } from "bun:test";
import { parse } from "yaml";
import { counts, setup, type Instance } from "./test-helpers";

const FILE = `version: 1
monitors:
  - key: shop
    name: Shop
    url: http://127.0.0.1:9/
    active: false
  - key: api
    name: API
    url: http://127.0.0.1:9/api
    active: false
maintenance:
  - key: nightly
    title: Nightly backup
    monitors: [shop, api]
    schedule:
      kind: daily
      time: "02:00"
      durationMinutes: 30
      timezone: Europe/Berlin
  - key: migration
    title: Database migration
    description: Moving to the new cluster
    scope: all
    schedule:
      kind: once
      startsAt: 2030-01-01T01:00:00Z
      endsAt: 2030-01-01T03:00:00Z
`;

async function windows(s: Instance) {
  const monitors = new Map(((await s.get("/api/monitors")).monitors as any[]).map((m) => [m.id, m.name]));
  return ((await s.get("/api/maintenance")).windows as any[])
    .map(({ id: _i, createdAt: _c, updatedAt: _u, state: _s, next: _n, current: _cu, upcoming: _up, ...w }) => ({ ...w, monitorIds: (w.monitorIds as number[]).map((id) => monitors.get(id)).sort() }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

describe("configuration as code: maintenance windows", () => {
  test("apply creates the windows; again writes nothing; export (defaults left out: scope targets, the server's zone) → empty instance is the same", async () => {
    const s = await setup();
    const applied = await s.post("/api/config/apply", { yaml: FILE });
    expect(applied.status).toBe(200);
    expect(applied.body.plan.counts).toEqual({ create: 4, change: 0, delete: 0, unchanged: 0 });
    const list = await windows(s);
    expect(list[0]).toMatchObject({ title: "Database migration", scope: "all", schedule: { kind: "once", startsAt: Date.parse("2030-01-01T01:00:00Z"), endsAt: Date.parse("2030-01-01T03:00:00Z") } });
    expect(list[1]).toMatchObject({ title: "Nightly backup", scope: "targets", monitorIds: ["API", "Shop"], schedule: { kind: "daily", time: "02:00", durationMinutes: 30, timezone: "Europe/Berlin" } });

    const before = await counts(s);
    const again = await s.post("/api/config/apply", { yaml: FILE });
    expect(again.body).toMatchObject({ written: false, plan: { counts: { create: 0, change: 0, delete: 0, unchanged: 4 } } });
    expect(await counts(s)).toEqual(before);

    const exported = await s.text("/api/config/export");
    const file = parse(exported.text);
    expect(file.maintenance).toEqual([
      { key: "nightly", title: "Nightly backup", monitors: ["api", "shop"], schedule: { kind: "daily", time: "02:00", durationMinutes: 30, timezone: "Europe/Berlin" } },
      { key: "migration", title: "Database migration", description: "Moving to the new cluster", scope: "all", schedule: { kind: "once", startsAt: "2030-01-01T01:00:00.000Z", endsAt: "2030-01-01T03:00:00.000Z" } },
    ]);
    const other = await setup();
    expect((await other.post("/api/config/apply", { yaml: exported.text })).status).toBe(200);
    expect(await windows(other)).toEqual(await windows(s));
    expect((await other.text("/api/config/export")).text).toBe(exported.text);
  });

  test("one changed field is one change, shown inside the schedule", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE });
    const plan = await s.post("/api/config/plan", { yaml: FILE.replace("durationMinutes: 30", "durationMinutes: 45") });
    expect(plan.body.plan.items).toEqual([{ kind: "maintenance", key: "nightly", name: "Nightly backup", action: "change", objectId: expect.any(String), drift: false, adopt: false, changes: [{ path: "schedule.durationMinutes", old: 30, new: 45 }] }]);
  });

  test("prune deletes only managed windows", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE });
    const made = await s.post("/api/maintenance", { title: "By hand", scope: "all", schedule: { kind: "once", startsAt: Date.parse("2031-01-01T00:00:00Z"), endsAt: Date.parse("2031-01-01T01:00:00Z") } });
    expect(made.status).toBe(201);
    const smaller = FILE.slice(0, FILE.indexOf("  - key: migration"));
    expect((await s.post("/api/config/plan", { yaml: smaller })).body.plan.notInFile).toEqual([{ kind: "maintenance", key: "migration", name: "Database migration" }]);
    const pruned = await s.post("/api/config/apply", { yaml: smaller, prune: true });
    expect(pruned.body.plan.items).toMatchObject([{ kind: "maintenance", key: "migration", action: "delete" }]);
    expect((await windows(s)).map((w) => w.title)).toEqual(["By hand", "Nightly backup"]);
  });

  test("drift: a window edited in the UI is drifted; apply puts it back", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE });
    const nightly = (await s.managed()).find((m) => m.key === "nightly")!;
    const w = (await s.get(`/api/maintenance/${nightly.objectId}`)).window;
    const saved = await s.call<any>("PUT", `/api/maintenance/${nightly.objectId}`, { token: s.admin.token, body: { title: w.title, scope: w.scope, monitorIds: w.monitorIds.slice(0, 1), schedule: w.schedule } });
    expect(saved.status).toBe(200);
    expect((await s.managed()).find((m) => m.key === "nightly")!.drifted).toBe(true);
    const plan = await s.post("/api/config/plan", { yaml: FILE });
    expect(plan.body.plan.items).toMatchObject([{ key: "nightly", drift: true, changes: [{ path: "monitors" }] }]);
    await s.post("/api/config/apply", { yaml: FILE });
    expect((await s.managed()).filter((m) => m.drifted)).toEqual([]);
  });

  test("the API's limit on windows in all holds: a file that would pass it is refused at its section, nothing written", async () => {
    const s = await setup();
    const { maintenanceWindows } = s.db.t;
    // 4 999 windows made by hand: the file's two would make 5 001.
    const row = { title: "By hand", scope: "all" as const, kind: "once" as const, startsAt: 1, endsAt: 2, timezone: "UTC", createdAt: 1, updatedAt: 1 };
    for (let i = 0; i < 4999; i += 500) await s.db.orm.insert(maintenanceWindows).values(Array.from({ length: Math.min(500, 4999 - i) }, () => row));
    const before = await counts(s);
    const res = await s.post("/api/config/apply", { yaml: FILE });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/line 12, maintenance: at most 5000 maintenance windows in all: applying this file would make 5001/);
    expect(await counts(s)).toEqual(before);
    // One of them is enough to stay within it.
    expect((await s.post("/api/config/apply", { yaml: FILE.slice(0, FILE.indexOf("  - key: migration")) })).status).toBe(200);
  });

  const invalid: [string, string, RegExp][] = [
    ["a monitor key that is not in the file", FILE.replace("[shop, api]", "[shop, cart]"), /^line 14, maintenance\[0\]\.monitors\[1\]: no monitor or group has the key "cart"/],
    ["a schedule the API refuses", FILE.replace('"02:00"', '"25:00"'), /^line 16, maintenance\[0\]\.schedule: Time must be HH:MM/],
    ["a time that is no time", FILE.replace("2030-01-01T01:00:00Z", "next tuesday"), /^line 26, maintenance\[1\]\.schedule\.startsAt: schedule\.startsAt must be an ISO 8601 time/],
    ["targets without monitors", FILE.replace("    monitors: [shop, api]\n", ""), /^line 12, maintenance\[0\]\.monitors: Choose at least one monitor/],
    ["an unknown schedule field", FILE.replace("      durationMinutes: 30\n", "      durationMinutes: 30\n      duration: 30\n"), /^line 19, maintenance\[0\]\.schedule\.duration: unknown field "duration"/],
  ];
  for (const [what, yaml, message] of invalid) {
    test(`refused whole, nothing written: ${what}`, async () => {
      const s = await setup();
      const before = await counts(s);
      const res = await s.post("/api/config/apply", { yaml });
      expect(res.status).toBe(400);
      expect(res.body.message.replace("The configuration file is invalid: ", "")).toMatch(message);
      expect(await counts(s)).toEqual(before);
    });
  }
});
