// On-call schedules through the API, on both engines: a rotation across Berlin's spring-forward night, now and next,
// overrides changing who is on call, the shifts of a range, bad input refused with a clear message, viewers reading
// only, a deleted account leaving the rotation; and what escalation will call (onCallAt, existing).
import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { TEST_SECRET, testApp } from "../test-support";
import type { OnCallPerson, OnCallSchedule, OnCallShift } from "./public";

const H = 3_600_000;
const DAY = 24 * H;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);
const opened: { services: Services; db: Db }[] = [];

afterEach(async () => {
  for (const { db } of opened.splice(0)) await db.close().catch(() => {});
});

async function setup() {
  const db = await testDb();
  const clock = { now: utc(2026, 3, 28, 12) };
  const services = await createServices(db, { now: () => clock.now, secret: TEST_SECRET });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const alice = await t.signUp("alice");
  const bob = await t.signUp("bob");
  const carol = await t.signUp("carol");
  const vera = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: alice.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  const token = alice.token;
  const create = (body: Record<string, unknown>, as = token) => t.call<{ schedule: OnCallSchedule }>("POST", "/api/oncall/schedules", { token: as, body });
  const berlin = { name: "Web", timeZone: "Europe/Berlin", rotation: "daily", handoverTime: "09:00", startDate: "2026-03-27", participants: [alice.user.id, bob.user.id] };
  const get = async (id: number, as = token) => (await t.call<{ schedule: OnCallSchedule }>("GET", `/api/oncall/schedules/${id}`, { token: as })).body.schedule;
  const override = (id: number, body: Record<string, unknown>, as = token) => t.call<{ overrideId: number; schedule: OnCallSchedule }>("POST", `/api/oncall/schedules/${id}/overrides`, { token: as, body });
  const shifts = (id: number, from: number, to: number, as = token) => t.call<{ shifts: OnCallShift[] }>("GET", `/api/oncall/schedules/${id}/shifts?from=${from}&to=${to}`, { token: as });
  return { ...t, services, clock, token, alice: alice.user, bob: bob.user, carol: carol.user, vera, create, berlin, get, override, shifts };
}

describe("on-call schedules", () => {
  test("a daily rotation in Berlin: who is on call now and next, across the spring-forward night, for every role", async () => {
    const s = await setup();
    const made = await s.create(s.berlin);
    expect(made.status).toBe(201);
    const id = made.body.schedule.id;
    expect(made.body.schedule).toMatchObject({
      name: "Web",
      timeZone: "Europe/Berlin",
      rotation: "daily",
      handoverTime: "09:00",
      handoverWeekday: null,
      startDate: "2026-03-27",
      participants: [{ id: s.alice.id, username: "alice" }, { id: s.bob.id, username: "bob" }],
      overrides: [],
      // Saturday 03-28: bob's shift (the second) until 09:00 CEST on Sunday, which is 07:00 UTC after the change.
      now: { userId: s.bob.id, username: "bob", until: utc(2026, 3, 29, 7) },
      next: { userId: s.alice.id, username: "alice", from: utc(2026, 3, 29, 7) },
    });
    // A viewer reads the list and the shifts; nothing but ids and names of people in any of it.
    const list = await s.call<{ schedules: OnCallSchedule[] }>("GET", "/api/oncall/schedules", { token: s.vera.token });
    expect(list.status).toBe(200);
    expect(list.body.schedules.map((x) => x.id)).toEqual([id]);
    expect(JSON.stringify(list.body)).not.toMatch(/email|role|password|status/);

    // The shifts of three days: 24 h, then 23 h across the change, then 24 h.
    const range = await s.shifts(id, utc(2026, 3, 28), utc(2026, 3, 31), s.vera.token);
    expect(range.status).toBe(200);
    expect(range.body.shifts.map((x) => [x.username, x.start, x.end, x.overrideId])).toEqual([
      ["alice", utc(2026, 3, 27, 8), utc(2026, 3, 28, 8), null],
      ["bob", utc(2026, 3, 28, 8), utc(2026, 3, 29, 7), null],
      ["alice", utc(2026, 3, 29, 7), utc(2026, 3, 30, 7), null],
      ["bob", utc(2026, 3, 30, 7), utc(2026, 3, 31, 7), null],
    ]);

    // Before the first shift nobody is on call; alice is next.
    s.clock.now = utc(2026, 3, 20);
    expect(await s.get(id)).toMatchObject({ now: null, next: { userId: s.alice.id, from: utc(2026, 3, 27, 8) } });
    expect(await s.services.oncall.onCallAt(id, utc(2026, 3, 20))).toBeNull();
    expect(await s.services.oncall.onCallAt(id, utc(2026, 3, 29, 7))).toEqual({ userId: s.alice.id, username: "alice" });
  });

  test("overrides: for an evening and over several days; now changes at once, the latest created wins, deleting one undoes it", async () => {
    const s = await setup();
    const id = (await s.create(s.berlin)).body.schedule.id;
    const evening = await s.override(id, { userId: s.carol.id, startsAt: utc(2026, 3, 28, 11), endsAt: utc(2026, 3, 28, 20) });
    expect(evening.status).toBe(201);
    expect(evening.body.schedule.now).toEqual({ userId: s.carol.id, username: "carol", until: utc(2026, 3, 28, 20) });
    expect(evening.body.schedule.next).toEqual({ userId: s.bob.id, username: "bob", from: utc(2026, 3, 28, 20) });
    expect(evening.body.schedule.overrides).toEqual([
      { id: evening.body.overrideId, userId: s.carol.id, username: "carol", startsAt: utc(2026, 3, 28, 11), endsAt: utc(2026, 3, 28, 20), createdBy: { id: s.alice.id, username: "alice" }, createdAt: s.clock.now },
    ]);
    expect(await s.services.oncall.onCallAt(id, utc(2026, 3, 28, 19))).toEqual({ userId: s.carol.id, username: "carol" });

    // Alice covers Monday to Wednesday; bob takes one evening inside it (created later: his).
    const days = await s.override(id, { userId: s.alice.id, startsAt: utc(2026, 3, 30), endsAt: utc(2026, 4, 1, 22) });
    const inside = await s.override(id, { userId: s.bob.id, startsAt: utc(2026, 3, 31, 16), endsAt: utc(2026, 3, 31, 22) });
    expect([days.status, inside.status]).toEqual([201, 201]);
    const range = await s.shifts(id, utc(2026, 3, 30), utc(2026, 4, 2));
    expect(range.body.shifts.map((x) => [x.username, x.start, x.end, x.overrideId])).toEqual([
      ["alice", utc(2026, 3, 30), utc(2026, 3, 31, 16), days.body.overrideId],
      ["bob", utc(2026, 3, 31, 16), utc(2026, 3, 31, 22), inside.body.overrideId],
      ["alice", utc(2026, 3, 31, 22), utc(2026, 4, 1, 22), days.body.overrideId],
      ["bob", utc(2026, 4, 1, 22), utc(2026, 4, 2, 7), null],
    ]);

    const removed = await s.call<{ schedule: OnCallSchedule }>("DELETE", `/api/oncall/schedules/${id}/overrides/${evening.body.overrideId}`, { token: s.token });
    expect(removed.status).toBe(200);
    expect(removed.body.schedule.now).toEqual({ userId: s.bob.id, username: "bob", until: utc(2026, 3, 29, 7) });
    expect(removed.body.schedule.overrides.map((o) => o.id)).toEqual([days.body.overrideId, inside.body.overrideId]);
    expect((await s.call("DELETE", `/api/oncall/schedules/${id}/overrides/${evening.body.overrideId}`, { token: s.token })).status).toBe(404);

    // One far ahead is listed too.
    const far = await s.override(id, { userId: s.carol.id, startsAt: s.clock.now + 500 * DAY, endsAt: s.clock.now + 501 * DAY });
    expect(far.body.schedule.overrides.map((o) => o.id)).toEqual([days.body.overrideId, inside.body.overrideId, far.body.overrideId]);
    // Ended overrides leave the schedule's list (they still count for the shifts of the past).
    s.clock.now = utc(2026, 4, 5);
    expect((await s.get(id)).overrides.map((o) => o.id)).toEqual([far.body.overrideId]);
    expect((await s.shifts(id, utc(2026, 3, 31), utc(2026, 3, 31, 1))).body.shifts[0]!.overrideId).toBe(days.body.overrideId);
  });

  test("weekly rotations, edited whole; a schedule deleted takes its overrides", async () => {
    const s = await setup();
    const id = (await s.create(s.berlin)).body.schedule.id;
    const weekly = { ...s.berlin, name: "Weekly", rotation: "weekly", handoverWeekday: 1, startDate: "2026-03-23", participants: [s.carol.id, s.alice.id, s.bob.id] };
    const put = await s.call<{ schedule: OnCallSchedule }>("PUT", `/api/oncall/schedules/${id}`, { token: s.token, body: weekly });
    expect(put.status).toBe(200);
    // Monday 03-23 09:00 CET (08:00 UTC) to Monday 03-30 09:00 CEST (07:00 UTC): carol, for 167 hours.
    expect(put.body.schedule).toMatchObject({ name: "Weekly", handoverWeekday: 1, now: { userId: s.carol.id, until: utc(2026, 3, 30, 7) }, next: { userId: s.alice.id, from: utc(2026, 3, 30, 7) } });
    // A daily rotation forgets the weekday.
    const back = await s.call<{ schedule: OnCallSchedule }>("PUT", `/api/oncall/schedules/${id}`, { token: s.token, body: { ...weekly, rotation: "daily" } });
    expect(back.body.schedule.handoverWeekday).toBeNull();

    expect((await s.override(id, { userId: s.bob.id, startsAt: utc(2026, 4, 1), endsAt: utc(2026, 4, 2) })).status).toBe(201);
    expect(await s.services.oncall.names([id, 999, id])).toEqual(new Map([[id, "Weekly"]]));
    expect((await s.call("DELETE", `/api/oncall/schedules/${id}`, { token: s.token })).status).toBe(200);
    expect((await s.call("GET", `/api/oncall/schedules/${id}`, { token: s.token })).status).toBe(404);
    expect(await s.services.oncall.names([id])).toEqual(new Map());
    expect(await s.services.oncall.onCallAt(id, utc(2026, 4, 1, 12))).toBeNull();
    expect(await s.db.rows(sql`SELECT id FROM oncall_overrides`)).toEqual([]);
  });

  test("bad input: 400 with a message that names the field, 404 for what does not exist, never 500", async () => {
    const s = await setup();
    const id = (await s.create(s.berlin)).body.schedule.id;
    const b = s.berlin;
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...b, name: "  " }, /name/],
      [{ ...b, name: "x".repeat(101) }, /name/],
      [{ ...b, timeZone: "Mars/Olympus" }, /timeZone: unknown time zone "Mars\/Olympus"/],
      [{ ...b, timeZone: "" }, /timeZone/],
      [{ ...b, rotation: "hourly" }, /rotation must be daily or weekly/],
      [{ ...b, handoverTime: "24:00" }, /handoverTime/],
      [{ ...b, handoverTime: "9:00" }, /handoverTime/],
      [{ ...b, rotation: "weekly" }, /handoverWeekday/],
      [{ ...b, rotation: "weekly", handoverWeekday: 8 }, /handoverWeekday/],
      [{ ...b, startDate: "2026-02-30" }, /startDate/],
      [{ ...b, startDate: "tomorrow" }, /startDate/],
      [{ ...b, participants: [] }, /participants/],
      [{ ...b, participants: [s.alice.id, 999] }, /participants: no user 999/],
      [{ ...b, participants: [s.alice.id, s.alice.id] }, /each user once/],
      [{ ...b, participants: Array.from({ length: 51 }, (_, i) => i + 1) }, /participants/],
      [{ ...b, participants: ["alice"] }, /participants/],
      [{ name: "x" }, /./],
    ];
    for (const [body, message] of bad) {
      const res = await s.create(body);
      expect({ body: JSON.stringify(body).slice(0, 60), status: res.status, success: res.body.success, ok: message.test(String(res.body.message)) }).toEqual({ body: JSON.stringify(body).slice(0, 60), status: 400, success: false, ok: true });
    }
    expect((await s.call("PUT", `/api/oncall/schedules/${id}`, { token: s.token, body: { ...b, participants: [999] } })).status).toBe(400);
    expect((await s.call<{ schedules: unknown[] }>("GET", "/api/oncall/schedules", { token: s.token })).body.schedules).toHaveLength(1);

    for (const [method, path, body] of [
      ["GET", "/api/oncall/schedules/999", undefined],
      ["PUT", "/api/oncall/schedules/999", b],
      ["DELETE", "/api/oncall/schedules/999", undefined],
      ["GET", `/api/oncall/schedules/999/shifts?from=0&to=${DAY}`, undefined],
      ["POST", "/api/oncall/schedules/999/overrides", { userId: s.bob.id, startsAt: 0, endsAt: DAY }],
      ["DELETE", "/api/oncall/schedules/999/overrides/1", undefined],
    ] as const) {
      const res = await s.call(method, path, { token: s.token, body });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: "ONCALL_SCHEDULE_NOT_FOUND" });
    }
    expect((await s.call("GET", "/api/oncall/schedules/abc", { token: s.token })).status).toBe(400);

    const from = utc(2026, 3, 1);
    for (const query of [`from=${from}&to=${from + 63 * DAY}`, `from=${from}&to=${from}`, `from=${from + DAY}&to=${from}`, `from=${from}`, "from=x&to=1", ""]) {
      const res = await s.call("GET", `/api/oncall/schedules/${id}/shifts?${query}`, { token: s.token });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
    expect((await s.shifts(id, from, from + 62 * DAY)).status).toBe(200);

    const dave = await s.signUp("dave");
    expect((await s.call("PUT", `/api/users/${dave.user.id}`, { token: s.token, body: { username: "dave", status: "disabled" } })).status).toBe(200);
    const start = utc(2026, 4, 1);
    const badOverrides: [Record<string, unknown>, RegExp][] = [
      [{ userId: s.bob.id, startsAt: start, endsAt: start }, /endsAt must be after startsAt/],
      [{ userId: s.bob.id, startsAt: start, endsAt: start - 1 }, /endsAt must be after startsAt/],
      [{ userId: s.bob.id, startsAt: start, endsAt: start + 367 * DAY }, /at most 366 days/],
      [{ userId: 999, startsAt: start, endsAt: start + DAY }, /no user 999/],
      [{ userId: dave.user.id, startsAt: start, endsAt: start + DAY }, /dave is disabled/],
      [{ userId: s.bob.id, startsAt: -5, endsAt: start }, /startsAt/],
      [{ userId: s.bob.id, startsAt: "soon", endsAt: start }, /startsAt/],
      [{ startsAt: start, endsAt: start + DAY }, /userId/],
    ];
    for (const [body, message] of badOverrides) {
      const res = await s.override(id, body);
      expect({ body, status: res.status, ok: message.test(String(res.body.message)) }).toEqual({ body, status: 400, ok: true });
    }
    // An override of another schedule is not this one's.
    const other = (await s.create({ ...b, name: "Other" })).body.schedule.id;
    const theirs = (await s.override(other, { userId: s.bob.id, startsAt: start, endsAt: start + DAY })).body.overrideId;
    expect((await s.call("DELETE", `/api/oncall/schedules/${id}/overrides/${theirs}`, { token: s.token })).body.code).toBe("ONCALL_OVERRIDE_NOT_FOUND");
  });

  test("roles: viewers read but change nothing and get no people list; editors pick among active accounts by name only", async () => {
    const s = await setup();
    const id = (await s.create(s.berlin)).body.schedule.id;
    const v = s.vera.token;
    expect((await s.call("GET", `/api/oncall/schedules/${id}`, { token: v })).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/api/oncall/schedules", s.berlin],
      ["PUT", `/api/oncall/schedules/${id}`, s.berlin],
      ["DELETE", `/api/oncall/schedules/${id}`, undefined],
      ["POST", `/api/oncall/schedules/${id}/overrides`, { userId: s.bob.id, startsAt: 0, endsAt: DAY }],
      ["DELETE", `/api/oncall/schedules/${id}/overrides/1`, undefined],
      ["GET", "/api/oncall/people", undefined],
    ] as const) {
      const res = await s.call(method, path, { token: v, body });
      expect({ path, method, status: res.status, success: res.body.success }).toEqual({ path, method, status: 403, success: false });
    }
    expect((await s.call("GET", "/api/oncall/schedules")).status).toBe(401);

    const dave = await s.signUp("dave");
    expect((await s.call("PUT", `/api/users/${dave.user.id}`, { token: s.token, body: { username: "dave", status: "disabled" } })).status).toBe(200);
    const people = await s.call<{ people: OnCallPerson[] }>("GET", "/api/oncall/people", { token: s.token });
    expect(people.body.people).toEqual([
      { id: s.alice.id, username: "alice" },
      { id: s.bob.id, username: "bob" },
      { id: s.carol.id, username: "carol" },
      { id: s.vera.user.id, username: "vera" },
    ]);
  });

  test("a deleted account leaves the rotation and takes its overrides; a disabled one stays on call", async () => {
    const s = await setup();
    const id = (await s.create({ ...s.berlin, participants: [s.alice.id, s.carol.id, s.bob.id] })).body.schedule.id;
    expect((await s.override(id, { userId: s.carol.id, startsAt: utc(2026, 3, 28, 11), endsAt: utc(2026, 3, 28, 20) })).status).toBe(201);
    expect((await s.get(id)).now?.username).toBe("carol");
    // Disabled: still in the rotation (disabling can be undone), the override too.
    expect((await s.call("PUT", `/api/users/${s.carol.id}`, { token: s.token, body: { username: "carol", status: "disabled" } })).status).toBe(200);
    expect((await s.get(id)).participants.map((p) => p.username)).toEqual(["alice", "carol", "bob"]);
    expect((await s.get(id)).now?.username).toBe("carol");
    // Deleted: gone from the rotation, which closes up (shift 1 was carol's, of two people it is bob's), and from the overrides.
    expect((await s.call("DELETE", `/api/users/${s.carol.id}`, { token: s.token })).status).toBe(200);
    const after = await s.get(id);
    expect(after.participants.map((p) => p.username)).toEqual(["alice", "bob"]);
    expect(after.overrides).toEqual([]);
    expect(after.now).toEqual({ userId: s.bob.id, username: "bob", until: utc(2026, 3, 29, 7) });
    // Saving the schedule as read drops the stale id for good.
    const put = await s.call<{ schedule: OnCallSchedule }>("PUT", `/api/oncall/schedules/${id}`, { token: s.token, body: { ...s.berlin, participants: after.participants.map((p) => p.id) } });
    expect(put.status).toBe(200);
    // An override's author who is deleted leaves it in place, unsigned.
    const erin = await s.signUp("erin");
    const made = await s.override(id, { userId: s.alice.id, startsAt: utc(2026, 4, 1), endsAt: utc(2026, 4, 2) }, erin.token);
    expect(made.body.schedule.overrides[0]!.createdBy).toEqual({ id: erin.user.id, username: "erin" });
    expect((await s.call("DELETE", `/api/users/${erin.user.id}`, { token: s.token })).status).toBe(200);
    expect((await s.get(id)).overrides.map((o) => o.createdBy)).toEqual([null]);
  });
});
