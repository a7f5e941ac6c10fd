// channels: and a monitor's notify: through the API (both engines: server/db/test-db.ts): round trip into an empty
// instance, apply twice = nothing, one changed field, secrets, prune only managed, drift, invalid entries.
import { describe, expect, test } from "bun:test";
import { parse } from "yaml";
import { counts, setup, type Instance } from "./test-helpers";

const FILE = `version: 1
channels:
  - key: ops-hook
    name: Ops hook
    type: webhook
    config:
      url: \${HOOK_URL}
  - key: phone
    name: Phone
    type: ntfy
    enabled: false
    config:
      server: https://ntfy.example.com
      topic: vigil-alerts
      token: \${NTFY_TOKEN}
    quietHours: { from: "22:00", to: "07:00", timeZone: Europe/Berlin }
monitors:
  - key: shop
    name: Shop
    url: http://127.0.0.1:9/
    active: false
    notify:
      channels: [phone, ops-hook]
      events: { recovery: false }
      reminderMinutes: 30
  - key: blog
    name: Blog
    url: http://127.0.0.1:9/blog
    active: false
`;
const env = { HOOK_URL: "https://hooks.example.com/vigil?key=s3cret-hook", NTFY_TOKEN: "tk_secret-token-value" };

async function channelsOf(s: Instance) {
  const list = (await s.get("/api/notifications/channels")).channels as any[];
  return list.map(({ id: _i, createdAt: _c, updatedAt: _u, health: _h, ...c }) => c).sort((a, b) => a.name.localeCompare(b.name));
}
async function overrideOf(s: Instance, name: string) {
  const monitors = (await s.get("/api/monitors")).monitors as any[];
  const id = monitors.find((m) => m.name === name).id;
  const channels = new Map(((await s.get("/api/notifications/channels")).channels as any[]).map((c) => [c.id, c.name]));
  const r = await s.get(`/api/notifications/settings/monitors/${id}`);
  return { override: r.override, ...r.settings, channelIds: (r.settings.channelIds as number[]).map((c) => channels.get(c)).sort() };
}

describe("configuration as code: channels and notify", () => {
  test("apply creates the channels and the monitor's own settings; again writes nothing; export → empty instance is the same", async () => {
    const s = await setup();
    const applied = await s.post("/api/config/apply", { yaml: FILE, env });
    expect(applied.status).toBe(200);
    expect(applied.body.plan.counts).toEqual({ create: 4, change: 0, delete: 0, unchanged: 0 });
    expect(await overrideOf(s, "Shop")).toEqual({ override: true, enabled: true, channelIds: ["Ops hook", "Phone"], events: { down: true, recovery: false, budget: true }, reminderMinutes: 30 });
    expect((await overrideOf(s, "Blog")).override).toBe(false);
    const phone = (await channelsOf(s)).find((c) => c.name === "Phone");
    expect(phone).toMatchObject({ type: "ntfy", enabled: false, config: { server: "https://ntfy.example.com", topic: "vigil-alerts" }, quietHours: { from: "22:00", to: "07:00", timeZone: "Europe/Berlin", holdDown: false } });

    const before = await counts(s);
    const again = await s.post("/api/config/apply", { yaml: FILE, env });
    expect(again.body).toMatchObject({ written: false, plan: { counts: { create: 0, change: 0, delete: 0, unchanged: 4 } } });
    expect(await counts(s)).toEqual(before);
    expect((await s.managed()).filter((m) => m.drifted)).toEqual([]);

    const exported = await s.text("/api/config/export?withSecrets=true");
    const other = await setup();
    expect((await other.post("/api/config/apply", { yaml: exported.text })).status).toBe(200);
    expect(await channelsOf(other)).toEqual(await channelsOf(s));
    expect(await overrideOf(other, "Shop")).toEqual(await overrideOf(s, "Shop"));
    expect((await other.text("/api/config/export?withSecrets=true")).text).toBe(exported.text);
  });

  test("export: secrets as ${ENV} references, defaults left out; applying it adopts a channel made in the UI", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    await s.post("/api/notifications/channels", { name: "Made in the UI", type: "slack", config: { url: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX" } });
    const { text } = await s.text("/api/config/export");
    expect(text).not.toContain("s3cret-hook");
    expect(text).not.toContain("tk_secret");
    const file = parse(text);
    expect(file.channels.find((c: any) => c.key === "ops-hook")).toEqual({ key: "ops-hook", name: "Ops hook", type: "webhook", config: { url: "${VIGIL_CHANNEL_OPS_HOOK_URL}" } });
    expect(file.channels.find((c: any) => c.key === "phone")).toEqual({ key: "phone", name: "Phone", type: "ntfy", enabled: false, config: { server: "https://ntfy.example.com", topic: "vigil-alerts", token: "${VIGIL_CHANNEL_PHONE_TOKEN}" }, quietHours: { from: "22:00", to: "07:00", timeZone: "Europe/Berlin" } });
    expect(file.monitors.find((m: any) => m.key === "shop").notify).toEqual({ channels: ["ops-hook", "phone"], events: { recovery: false }, reminderMinutes: 30 });
    const vars = { VIGIL_CHANNEL_OPS_HOOK_URL: env.HOOK_URL, VIGIL_CHANNEL_PHONE_TOKEN: env.NTFY_TOKEN, VIGIL_CHANNEL_MADE_IN_THE_UI_URL: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX" };
    const plan = await s.post("/api/config/plan", { yaml: text, env: vars });
    expect(plan.body.plan.items).toMatchObject([{ kind: "channel", key: "made-in-the-ui", action: "change", adopt: true, changes: [] }]);
  });

  test("one changed field is one change; a changed secret is only said to change; notify changes field by field", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    const renamed = await s.post("/api/config/plan", { yaml: FILE.replace("name: Phone", "name: Pager"), env });
    expect(renamed.body.plan.items).toEqual([{ kind: "channel", key: "phone", name: "Pager", action: "change", objectId: expect.any(String), drift: false, adopt: false, changes: [{ path: "name", old: "Phone", new: "Pager" }] }]);
    const secret = await s.post("/api/config/plan", { yaml: FILE, env: { ...env, NTFY_TOKEN: "tk_another-token" } });
    expect(secret.body.plan.items[0].changes).toEqual([{ path: "config.token", secret: true }]);
    expect(JSON.stringify(secret.body)).not.toContain("tk_another");
    const fewer = await s.post("/api/config/apply", { yaml: FILE.replace("[phone, ops-hook]", "[phone]"), env });
    expect(fewer.body.plan.items).toMatchObject([{ kind: "monitor", key: "shop", changes: [{ path: "notify" }] }]);
    expect((await overrideOf(s, "Shop")).channelIds).toEqual(["Phone"]);
  });

  test("prune deletes only managed channels and takes them out of the settings; without notify the override goes", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    await s.post("/api/notifications/channels", { name: "Not in any file", type: "ntfy", config: { server: "https://ntfy.example.com", topic: "other" } });
    const smaller = FILE.replace(/  - key: phone[\s\S]*?quietHours: [^\n]*\n/, "").replace("[phone, ops-hook]", "[ops-hook]");
    const kept = await s.post("/api/config/plan", { yaml: smaller, env });
    expect(kept.body.plan.notInFile).toEqual([{ kind: "channel", key: "phone", name: "Phone" }]);
    const pruned = await s.post("/api/config/apply", { yaml: smaller, env, prune: true });
    expect(pruned.body.plan.items).toMatchObject([{ kind: "monitor", key: "shop", action: "change" }, { kind: "channel", key: "phone", action: "delete" }]);
    expect((await channelsOf(s)).map((c) => c.name)).toEqual(["Not in any file", "Ops hook"]);
    const withoutNotify = smaller.replace(/    notify:\n[\s\S]*?reminderMinutes: 30\n/, "");
    await s.post("/api/config/apply", { yaml: withoutNotify, env });
    expect((await overrideOf(s, "Shop")).override).toBe(false);
  });

  test("drift: a channel or a monitor's notification settings edited in the UI are drifted until the next apply", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    const phone = (await s.managed()).find((m) => m.key === "phone")!;
    await s.call("PUT", `/api/notifications/channels/${phone.objectId}`, { token: s.admin.token, body: { enabled: true } });
    const shop = (await s.managed()).find((m) => m.key === "shop")!;
    await s.call("DELETE", `/api/notifications/settings/monitors/${shop.objectId}`, { token: s.admin.token });
    expect((await s.managed()).filter((m) => m.drifted).map((m) => m.key).sort()).toEqual(["phone", "shop"]);
    const plan = await s.post("/api/config/plan", { yaml: FILE, env });
    expect(plan.body.plan.items).toMatchObject([
      { key: "shop", drift: true, changes: [{ path: "notify", old: null }] },
      { key: "phone", drift: true, changes: [{ path: "enabled", old: true, new: false }] },
    ]);
    await s.post("/api/config/apply", { yaml: FILE, env });
    expect((await s.managed()).filter((m) => m.drifted)).toEqual([]);
  });

  const invalid: [string, string, RegExp][] = [
    ["a config the provider refuses", FILE.replace("server: https://ntfy.example.com", "server: ftp://ntfy.example.com"), /^line 13, channels\[1\]\.config\.server: Server URL must start with http/],
    ["an unknown type", FILE.replace("type: ntfy", "type: carrier-pigeon"), /^line 10, channels\[1\]\.type: type must be one of/],
    ["notify naming no channel", FILE.replace("[phone, ops-hook]", "[phone, pager]"), /^line 23, monitors\[0\]\.notify\.channels\[1\]: no channel has the key "pager"/],
    ["quiet hours in no zone", FILE.replace("timeZone: Europe/Berlin", "timeZone: Mars/Olympus"), /^line 16, channels\[1\].quietHours: quietHours\.timeZone must be an IANA time zone/],
    ["a duplicate key", FILE.replace("key: phone", "key: ops-hook"), /^line 8, channels\[1\]\.key: duplicate key "ops-hook"/],
  ];
  for (const [what, yaml, message] of invalid) {
    test(`refused whole, nothing written: ${what}`, async () => {
      const s = await setup();
      const before = await counts(s);
      const res = await s.post("/api/config/apply", { yaml, env });
      expect(res.status).toBe(400);
      expect(res.body.message.replace("The configuration file is invalid: ", "")).toMatch(message);
      expect(await counts(s)).toEqual(before);
    });
  }
});
