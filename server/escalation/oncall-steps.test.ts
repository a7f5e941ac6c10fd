// Steps that page "whoever is on call in schedule X", in the wired services on both engines: the person on call when a
// step fires is paged through their own contact channel (an override made meanwhile decides who that is), the
// monitor's page names the next one and whether they can be reached, a disabled account's turn pages nobody, and a
// deleted schedule is gone from the policy's names. A movable clock stands in for waiting.
import { afterEach, expect, test } from "bun:test";
import type { EscalationPolicy, TargetEscalation } from "./public";
import { escalationInstance } from "./test-instance";

const MIN = 60_000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

test("each step pages whoever is on call then, through their own channel; the page names them; a disabled account's turn pages nobody", async () => {
  const t = await escalationInstance(cleanups);
  const { hook, services, now, advance } = t;
  const admin = await t.signUp("alice");
  const bob = await t.signUp("bob");
  const carol = await t.signUp("carol");
  const dave = await t.signUp("dave");
  for (const who of [bob, carol, dave]) {
    const made = await t.call("POST", "/api/me/channels", { token: who.token, body: { name: "mine", type: "webhook", config: { url: `${hook.url}/${who.user.username}` } } });
    expect(made.status).toBe(201);
  }
  const call = <T = Record<string, any>>(method: string, path: string, body?: unknown) => t.call<T>(method, path, { token: admin.token, body });

  // Bob is on call today (a daily rotation from today, handing over at midnight UTC).
  const today = new Date(now()).toISOString().slice(0, 10);
  const schedule = (await call("POST", "/api/oncall/schedules", { name: "Primary", timeZone: "UTC", rotation: "daily", handoverTime: "00:00", startDate: today, participants: [bob.user.id, carol.user.id] })).body.schedule;
  expect(schedule.now.username).toBe("bob");
  const made = await call<{ policy: EscalationPolicy }>("POST", "/api/escalation-policies", {
    name: "Primary first",
    steps: [
      { channelIds: [], scheduleIds: [schedule.id], waitMinutes: 10 },
      { channelIds: [], scheduleIds: [schedule.id], waitMinutes: 10 },
    ],
    isDefault: true,
  });
  expect(made.status).toBe(201);
  expect(made.body.policy.schedules).toEqual([{ id: schedule.id, name: "Primary" }]);

  const monitor = (await call("POST", "/api/monitors", { name: "Shop", url: t.targetUrl, retries: 0, active: false })).body.monitor.id;
  const got = () => hook.received.map((r) => {
    const facts = (r.json as { events: { facts: { escalationStep?: number; escalationPeople?: string[] } }[] }).events[0]!.facts;
    return `${r.path} ${facts.escalationStep} ${facts.escalationPeople?.join(",")}`;
  });

  expect((await call("POST", `/api/monitors/${monitor}/check`)).status).toBe(200);
  await advance(1_000);
  expect(got()).toEqual(["/bob 1 bob (Primary)"]);

  // Carol takes over for the next hour: step 2, ten minutes on, pages her, and the monitor's page says so beforehand.
  const override = await call("POST", `/api/oncall/schedules/${schedule.id}/overrides`, { userId: carol.user.id, startsAt: now(), endsAt: now() + 60 * MIN });
  expect(override.status).toBe(201);
  const escalation = (await call<{ escalation: TargetEscalation }>("GET", `/api/monitors/${monitor}/escalation`)).body.escalation;
  expect(escalation.problems[0]!.next).toMatchObject({ step: 1, people: [{ userId: carol.user.id, username: "carol", schedule: { id: schedule.id, name: "Primary" }, reachable: true }] });
  await advance(10 * MIN);
  expect(got()).toEqual(["/bob 1 bob (Primary)", "/carol 2 carol (Primary)"]);

  // Dave covers now, but his account is disabled: his turn pages nobody.
  await call("DELETE", `/api/oncall/schedules/${schedule.id}/overrides/${override.body.overrideId}`);
  expect((await call("POST", `/api/oncall/schedules/${schedule.id}/overrides`, { userId: dave.user.id, startsAt: now(), endsAt: now() + 60 * MIN })).status).toBe(201);
  expect((await call("PUT", `/api/users/${dave.user.id}`, { username: "dave", status: "disabled" })).status).toBe(200);
  expect((await services.escalation.of("monitor", monitor)).problems[0]!.next).toBeNull(); // the last step has paged
  const people = await services.escalation.people.people({ channelIds: [], scheduleIds: [schedule.id], waitMinutes: 1 }, now());
  expect(people).toEqual([]);

  // A deleted schedule leaves the policy's names (a step naming it pages nobody).
  expect((await call("DELETE", `/api/oncall/schedules/${schedule.id}`)).status).toBe(200);
  expect((await call<{ policy: EscalationPolicy }>("GET", `/api/escalation-policies/${made.body.policy.id}`)).body.policy.schedules).toEqual([]);
}, 30_000);
