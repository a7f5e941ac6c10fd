import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp } from "../test-support";
import type { PublicTag } from "./public";

// /api/tags: the tag names on monitors ("env:prod" is the name env with the value prod), their colours, who may set
// them, and the 400/403/404 answers.

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const editor = await t.signUp("eddie");
  const viewer = await t.signUp("vera");
  await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } });
  const monitor = async (name: string, tags: string[]) =>
    expect((await t.call("POST", "/api/monitors", { token: admin.token, body: { name, url: "http://127.0.0.1:9/", active: false, tags } })).status).toBe(201);
  await monitor("Shop", ["env:prod", "Team:web", "env:canary"]);
  await monitor("Blog", ["ENV:staging", "blog"]);
  await monitor("Wiki", []);
  const list = async (token = admin.token) => (await t.call<{ data: PublicTag[] }>("GET", "/api/tags", { token })).body.data;
  return { ...t, admin: admin.token, editor: editor.token, viewer: viewer.token, list };
}

describe("tags", () => {
  test("lists each tag name once with how many monitors carry it, whatever its values and case", async () => {
    const t = await setup();
    expect(await t.list()).toEqual([
      { name: "blog", color: null, monitors: 1 },
      { name: "env", color: null, monitors: 2 },
      { name: "Team", color: null, monitors: 1 },
    ]);
  });

  test("an editor sets a colour (any spelling of the name), it shows in the list; clearing it brings back null", async () => {
    const t = await setup();
    const put = await t.call("PUT", "/api/tags/ENV", { token: t.editor, body: { color: "#1D4ED8" } });
    expect(put.status).toBe(200);
    expect(put.body.success).toBe(true);
    expect((await t.list(t.viewer)).find((x) => x.name === "env")).toEqual({ name: "env", color: "#1d4ed8", monitors: 2 });
    // Set again under another spelling: replaced, not doubled.
    expect((await t.call("PUT", "/api/tags/env", { token: t.admin, body: { color: "#059669" } })).status).toBe(200);
    expect((await t.list()).find((x) => x.name === "env")?.color).toBe("#059669");
    expect(await t.db.rows(sql`SELECT count(*) AS n FROM tag_styles`)).toEqual([{ n: 1 }]);

    expect((await t.call("DELETE", "/api/tags/Env", { token: t.editor })).status).toBe(200);
    expect((await t.list()).find((x) => x.name === "env")?.color).toBeNull();
    // Clearing a tag in use that has no colour is fine (nothing to do).
    expect((await t.call("DELETE", "/api/tags/env", { token: t.editor })).status).toBe(200);
  });

  test("the colour stays when the last monitor drops the tag, and shows again when one carries it", async () => {
    const t = await setup();
    await t.call("PUT", "/api/tags/blog", { token: t.admin, body: { color: "#aabbcc" } });
    const blog = (await t.call<{ monitors: { id: number; name: string }[] }>("GET", "/api/monitors", { token: t.admin })).body.monitors.find((m) => m.name === "Blog")!;
    await t.call("PUT", `/api/monitors/${blog.id}`, { token: t.admin, body: { tags: [] } });
    expect((await t.list()).map((x) => x.name)).toEqual(["env", "Team"]);
    await t.call("PUT", `/api/monitors/${blog.id}`, { token: t.admin, body: { tags: ["blog:v2"] } });
    expect((await t.list()).find((x) => x.name === "blog")).toEqual({ name: "blog", color: "#aabbcc", monitors: 1 });
  });

  test("a viewer reads but may not change colours; no session: 401", async () => {
    const t = await setup();
    expect((await t.call("GET", "/api/tags")).status).toBe(401);
    const put = await t.call("PUT", "/api/tags/env", { token: t.viewer, body: { color: "#123456" } });
    expect(put.status).toBe(403);
    expect(put.body).toMatchObject({ success: false });
    expect(put.body.message).toBeTruthy();
    expect((await t.call("DELETE", "/api/tags/env", { token: t.viewer })).status).toBe(403);
  });

  test("bad colours and names: 400; a name no monitor carries: 404", async () => {
    const t = await setup();
    for (const color of ["red", "#12345", "#1234567", "#gggggg", "", 42]) {
      const res = await t.call("PUT", "/api/tags/env", { token: t.admin, body: { color } });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await t.call("PUT", "/api/tags/env", { token: t.admin, body: {} })).status).toBe(400);
    const long = await t.call("PUT", `/api/tags/${"x".repeat(40)}`, { token: t.admin, body: { color: "#123456" } });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain("32");
    expect((await t.call("PUT", "/api/tags/env%3Aprod", { token: t.admin, body: { color: "#123456" } })).status).toBe(400);
    expect((await t.call("PUT", "/api/tags/%20", { token: t.admin, body: { color: "#123456" } })).status).toBe(400);
    const missing = await t.call("PUT", "/api/tags/nothing", { token: t.admin, body: { color: "#123456" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, code: "TAG_NOT_FOUND" });
    expect((await t.call("DELETE", "/api/tags/nothing", { token: t.admin })).status).toBe(404);
    expect(await t.list()).toHaveLength(3);
  });
});
