// Acknowledging open problems through the API (both engines): who may, what it answers, and what it changes —
// reminders stop, a recovery clears it, the next occurrence starts unacknowledged. Real checks against a local target,
// the rules, the outbox and a local webhook; a clock the test moves.
import { describe, expect, test } from "bun:test";
import { testHost, testSample } from "../agents/test-fixtures";
import { ackTestSetup } from "./test-setup";

const setup = ackTestSetup();

describe("open problems", () => {
  test("a monitor down is an open problem every role sees; an editor acknowledges it once; a viewer cannot", async () => {
    const t = await setup();
    await t.check(200);
    expect(await t.problems()).toEqual([]);
    await t.check(500);
    const [open] = await t.problems(t.vera.token);
    expect(open).toEqual({ targetType: "monitor", targetId: t.monitor, targetName: "Shop", condition: "down", since: expect.any(Number), lastNotifiedAt: expect.any(Number), ack: null });

    const refused = await t.ack(t.vera.token);
    expect([refused.status, refused.body.code]).toEqual([403, "READ_ONLY"]);

    const done = await t.ack(t.bob.token);
    expect(done.status).toBe(200);
    expect(done.body.problem.ack).toEqual({ at: expect.any(Number), by: "bob", via: "ui", channel: null });
    expect((await t.problems(t.vera.token))[0]!.ack).toEqual(done.body.problem.ack);

    const twice = await t.ack(t.alice.token);
    expect([twice.status, twice.body.code]).toEqual([409, "ALREADY_ACKNOWLEDGED"]);
    expect(twice.body.message).toBe(`Already acknowledged by bob at ${new Date(done.body.problem.ack!.at).toISOString()}`);
  });

  test("404 PROBLEM_NOT_FOUND for what is not open; 400 for a malformed body", async () => {
    const t = await setup();
    await t.check(200);
    for (const body of [
      { targetType: "monitor", targetId: t.monitor, condition: "down" }, // up: nothing open
      { targetType: "monitor", targetId: 999, condition: "down" },
      { targetType: "agent", targetId: t.monitor, condition: "offline" },
    ]) {
      const res = await t.ack(t.alice.token, body);
      expect([res.status, res.body.code]).toEqual([404, "PROBLEM_NOT_FOUND"]);
    }
    for (const body of [{}, { targetType: "group", targetId: 1, condition: "down" }, { targetType: "monitor", targetId: 0, condition: "down" }, { targetType: "monitor", targetId: 1, condition: "" }, { targetType: "monitor", targetId: 1, condition: "x".repeat(600) }]) {
      expect((await t.ack(t.alice.token, body)).status).toBe(400);
    }
  });

  test("an API token with write scope acknowledges (via api); a read-only one cannot", async () => {
    const t = await setup();
    await t.check(200);
    await t.check(500);
    const token = async (scope: string) => (await t.call<{ secret: string }>("POST", "/api/tokens", { token: t.bob.token, body: { name: scope, scope } })).body.secret;
    const read = await t.ack(await token("read"));
    expect([read.status, read.body.code]).toEqual([403, "TOKEN_SCOPE"]);
    const write = await t.ack(await token("write"));
    expect(write.status).toBe(200);
    expect(write.body.problem.ack).toMatchObject({ by: "bob", via: "api" });
  });

  test("reminders stop once acknowledged; the recovery clears it; the next occurrence is unacknowledged and reminded again", async () => {
    const t = await setup({ reminderMinutes: 30 });
    await t.check(200);
    await t.check(500);
    t.advanceClock(30 * 60_000);
    await t.remind();
    const titles = () => t.sent().map((m) => m.title);
    expect(titles()).toEqual(["🔴 Monitor down: Shop", "🔴 Monitor still down: Shop"]);

    expect((await t.ack(t.alice.token)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      t.advanceClock(30 * 60_000);
      await t.remind();
    }
    expect(titles()).toHaveLength(2);

    // Recovery: the recovery message goes out, the problem (and its acknowledgement) is gone.
    const first = (await t.problems())[0]!;
    await t.check(200);
    expect(titles().at(-1)).toBe("🟢 Monitor recovered: Shop");
    expect(await t.problems()).toEqual([]);

    // Down again: a new occurrence, not acknowledged, reminded again.
    await t.check(500);
    const again = (await t.problems())[0]!;
    expect(again.ack).toBeNull();
    expect(again.since).toBeGreaterThan(first.since);
    t.advanceClock(30 * 60_000);
    await t.remind();
    expect(titles().slice(3)).toEqual(["🔴 Monitor down: Shop", "🔴 Monitor still down: Shop"]);
  });

  test("an agent's threshold alert is a problem too; the acknowledgement keeps its author's name when the account is deleted", async () => {
    const t = await setup();
    const registration = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: t.alice.token })).body.token;
    const agent = (await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: registration, host: testHost } })).body;
    const report = async (cpu: number) => {
      await t.call("POST", "/api/agents/report", { headers: { authorization: `Bearer ${agent.credential}` }, body: { host: testHost, interval: 10, samples: [testSample(t.now(), cpu)] } });
      await t.settle(61_000);
    };
    await report(95);
    await report(96);
    const cpu = (await t.problems()).find((p) => p.targetType === "agent");
    expect(cpu).toMatchObject({ targetId: agent.agentId, condition: "cpu", ack: null });
    expect((await t.ack(t.bob.token, { targetType: "agent", targetId: agent.agentId, condition: "cpu" })).status).toBe(200);

    expect((await t.call("DELETE", `/api/users/${t.bob.user.id}`, { token: t.alice.token })).status).toBe(200);
    const [kept] = await t.problems();
    expect(kept!.ack).toMatchObject({ by: "bob", via: "ui" });
    const [row] = await t.db.orm.select().from(t.db.t.notificationAlerts);
    expect(row!.ackedBy).toBeNull(); // the account is gone; its name stays

    // Back under the threshold: cleared with its acknowledgement.
    await report(10);
    expect(await t.problems()).toEqual([]);
  });

  test("the live bus tells of each change: raised, acknowledged, resolved", async () => {
    const t = await setup();
    const told: string[] = [];
    t.services.events.on("problem.change", (e) => told.push(`${e.action} ${e.problem.targetName} ${e.problem.condition} ${e.problem.ack?.by ?? "-"}`));
    await t.check(200);
    await t.check(500);
    await t.ack(t.bob.token);
    await t.check(200);
    expect(told).toEqual(["raised Shop down -", "acknowledged Shop down bob", "resolved Shop down bob"]);
  });
});
