// Open connections end with their session, also when the session was ended on another node sharing the database
// and its `user.change` never reached this node (the cluster bridge loses what is said while a listener is down):
// the periodic re-check catches it.
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Db } from "../db/database";
import { createEventBus } from "../events";
import { reopenableDb } from "../monitors/test-db";
import { createUserStore } from "../users/store";
import { createSessionWatch, type SessionWatch } from "./session-watch";

// Opening two handles runs the migrations on a fresh schema: slow on a busy machine.
setDefaultTimeout(20_000);

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Two nodes: two handles on one database (a PostgreSQL schema, or one SQLite file). */
async function twoNodes(): Promise<[Db, Db]> {
  const { open, cleanup } = await reopenableDb();
  cleanups.push(cleanup);
  const a = await open();
  const b = await open();
  cleanups.push(() => a.close(), () => b.close());
  return [a, b];
}

const until = async (ok: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await Bun.sleep(10);
};

describe("session watch across nodes", () => {
  test("a user disabled on one node: their connection on the other ends at the next re-check; others stay", async () => {
    const [a, b] = await twoNodes();
    const usersA = createUserStore(a, { onChange: () => {} }); // node A's bus is not node B's
    const alice = await usersA.create({ username: "alice", email: null, passwordHash: "h", role: "admin" });
    const bob = await usersA.create({ username: "bob", email: null, passwordHash: "h", role: "editor" });

    const watch: SessionWatch = createSessionWatch({ bus: createEventBus(), users: createUserStore(b), recheckMs: 50 });
    cleanups.push(() => watch.stop());
    const ended: string[] = [];
    watch.watch({ userId: alice.id, sv: alice.sessionVersion }, () => ended.push("alice"));
    watch.watch({ userId: bob.id, sv: bob.sessionVersion }, () => ended.push("bob"));
    await Bun.sleep(150);
    expect(ended).toEqual([]);
    expect(watch.size).toBe(2);

    await usersA.update(bob.id, { status: "disabled" });
    await until(() => ended.length > 0);
    expect(ended).toEqual(["bob"]);
    await Bun.sleep(150);
    expect(ended).toEqual(["bob"]); // ended once; alice's goes on
    expect(watch.size).toBe(1);
  });

  test("a connection whose session ended before it was watched is ended at once; a lookup that fails ends nothing", async () => {
    const [, b] = await twoNodes();
    const users = createUserStore(b);
    const carol = await users.create({ username: "carol", email: null, passwordHash: "h", role: "admin" });
    const watch = createSessionWatch({ bus: createEventBus(), users, recheckMs: 0 });
    cleanups.push(() => watch.stop());
    const ended: string[] = [];
    watch.watch({ userId: carol.id, sv: carol.sessionVersion - 1 }, () => ended.push("old"));
    await until(() => ended.length > 0);
    expect(ended).toEqual(["old"]);

    const failing = createSessionWatch({ bus: createEventBus(), users: { byId: async () => Promise.reject(new Error("down")) }, recheckMs: 20 });
    cleanups.push(() => failing.stop());
    failing.watch({ userId: carol.id, sv: carol.sessionVersion }, () => ended.push("failing"));
    await Bun.sleep(100);
    expect(ended).toEqual(["old"]);
    expect(failing.size).toBe(1);
  });
});
