// A later type's settings in replies, per role: secrets masked for everyone (a connection string's password, a
// password field), and for a viewer the values of name/value lists hidden too, as http headers are.
import { expect, test } from "bun:test";
import { testApp } from "../../test-support";
import type { PublicMonitor } from "../public";

test("an admin sees settings with secrets masked; a viewer also without header values", async () => {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const vera = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  const created = await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", {
    token: admin.token,
    body: {
      name: "Feed",
      type: "websocket",
      settings: { url: "wss://bot:hunter2-secret@feed.example.com/live", headers: [{ name: "Authorization", value: "Bearer tok-123456" }] },
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.monitor.id;
  const read = async (token: string) => (await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token })).body.monitor;

  const asAdmin = await read(admin.token);
  expect(asAdmin.settings.url).toBe("wss://bot:••••••••@feed.example.com/live");
  expect(asAdmin.target).not.toContain("hunter2-secret");
  expect(asAdmin.settings.headers).toEqual([{ name: "Authorization", value: "Bearer tok-123456" }]);
  const asViewer = await read(vera.token);
  expect(JSON.stringify(asViewer)).not.toContain("hunter2-secret");
  expect(JSON.stringify(asViewer)).not.toContain("tok-123456");
  expect((asViewer.settings.headers as { name: string }[])[0]!.name).toBe("Authorization");
  const list = (await t.call<{ monitors: PublicMonitor[] }>("GET", "/api/monitors", { token: vera.token })).body.monitors;
  expect(JSON.stringify(list)).not.toContain("tok-123456");
  expect(JSON.stringify(list)).not.toContain("hunter2-secret");
});
