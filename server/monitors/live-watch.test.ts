// /api/live sends a socket the checks of the monitors it watches ({"type":"watch",…}), or all of them (the default).
import { afterAll, describe, expect, test } from "bun:test";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import { parseWatch, WATCH_MAX } from "./live";
import type { LiveMessage, PublicMonitor } from "./public";
import { startTarget } from "./test-target";

const target = startTarget();
afterAll(() => target.stop());

describe("parseWatch", () => {
  test("ids or null; anything else is not a watch", () => {
    expect(parseWatch('{"type":"watch","data":{"monitors":[3,1,3]}}')).toEqual([3, 1]);
    expect(parseWatch({ type: "watch", data: { monitors: null } })).toBeNull();
    expect(parseWatch({ type: "watch", data: { monitors: [] } })).toEqual([]);
    for (const bad of ["nope", "{", '{"type":"hello"}', { type: "watch" }, { type: "watch", data: { monitors: [0] } }, { type: "watch", data: { monitors: ["1"] } }, { type: "watch", data: { monitors: [1.5] } }, { type: "watch", data: { monitors: Array.from({ length: WATCH_MAX + 1 }, (_, i) => i + 1) } }]) {
      expect(parseWatch(bad)).toBeUndefined();
    }
  });
});

describe("watching checks", () => {
  test("a socket that watches monitors gets their checks only; null brings back every check; bad messages change nothing", async () => {
    const db = await testDb();
    const services = await createServices(db);
    const t = await testApp({ db, services });
    const admin = await t.signUp("alice");
    const viewer = await t.signUp("victor");
    expect((await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "victor", role: "viewer" } })).status).toBe(200);
    const viewerToken = (await t.login("victor")).token;
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    const port = t.app.server!.port;
    const sockets: WebSocket[] = [];
    try {
      const make = async (name: string) =>
        (await t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token: admin.token, body: { name, url: target.url("/ok"), interval: 60 } })).body.monitor.id;
      const [a, b] = [await make("A"), await make("B")];

      const connect = async (token: string) => {
        const messages: LiveMessage[] = [];
        const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live?token=${token}`);
        sockets.push(ws);
        ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
        for (let i = 0; i < 200 && !messages.some((m) => (m.type as string) === "hello"); i++) await Bun.sleep(10);
        return { ws, messages, checked: () => messages.flatMap((m) => (m.type === "monitor.check" ? [m.data.monitorId] : [])).sort() };
      };
      const watcher = await connect(viewerToken);
      const everything = await connect(admin.token);
      const bad = await connect(admin.token);
      watcher.ws.send(JSON.stringify({ type: "watch", data: { monitors: [a] } }));
      bad.ws.send("not json");
      bad.ws.send(JSON.stringify({ type: "watch", data: { monitors: ["x"] } }));
      await Bun.sleep(50); // the server reads them before the checks below

      const checkBoth = async () => {
        for (const id of [a, b]) expect((await t.call("POST", `/api/monitors/${id}/check`, { token: admin.token })).status).toBe(200);
      };
      const settle = async (until: () => boolean) => {
        for (let i = 0; i < 200 && !until(); i++) await Bun.sleep(10);
        await Bun.sleep(50); // nothing more comes
      };
      await checkBoth();
      await settle(() => everything.checked().length >= 2 && bad.checked().length >= 2);
      expect(watcher.checked()).toEqual([a]);
      expect(everything.checked()).toEqual([a, b].sort());
      expect(bad.checked()).toEqual([a, b].sort());
      // Status and change messages are not narrowed.
      expect(watcher.messages.some((m) => m.type === "monitor.status" && m.data.monitorId === b)).toBe(true);

      watcher.ws.send(JSON.stringify({ type: "watch", data: { monitors: [b] } }));
      await Bun.sleep(50);
      watcher.messages.length = 0;
      await checkBoth();
      await settle(() => watcher.checked().length >= 1);
      expect(watcher.checked()).toEqual([b]);

      watcher.ws.send(JSON.stringify({ type: "watch", data: { monitors: [] } }));
      await Bun.sleep(50);
      watcher.messages.length = 0;
      await checkBoth();
      await settle(() => false);
      expect(watcher.checked()).toEqual([]);

      watcher.ws.send(JSON.stringify({ type: "watch", data: { monitors: null } }));
      await Bun.sleep(50);
      await checkBoth();
      await settle(() => watcher.checked().length >= 2);
      expect(watcher.checked()).toEqual([a, b].sort());
    } finally {
      for (const ws of sockets) ws.close();
      services.live.close();
      await t.app.stop(true);
      await services.monitors.stop();
    }
  });
});
