// The signed acknowledgement link an alert carries (both engines): present in the message and the webhook payload only
// when the instance knows its public address; it says what it is for without acting (GET), acknowledges once (POST),
// and refuses when expired, forged, garbled or when its problem has been resolved since.
import { describe, expect, test } from "bun:test";
import { createAckLinks } from "./links";
import { ACK_LINK_TTL_MS, type AckLinkInfo, type Problem } from "./public";
import { LINK_FAILURES_MAX } from "./routes";
import { ackTestSetup, type Sent } from "./test-setup";

const setup = ackTestSetup();
const PUBLIC = "https://vigil.example.com";

/** The link in a message: its "Acknowledge: …" line, which must be the event's facts.ackUrl. */
function linkOf(message: Sent): string {
  const line = message.lines.find((l) => l.startsWith("Acknowledge: "));
  expect(line).toBeDefined();
  const url = line!.slice("Acknowledge: ".length);
  expect(message.events[0]!.facts.ackUrl).toBe(url);
  expect(url.startsWith(`${PUBLIC}/ack/`)).toBe(true);
  return url.slice(`${PUBLIC}/ack/`.length);
}

async function down(options: { reminderMinutes?: number } = {}) {
  const t = await setup({ publicUrl: `${PUBLIC}/`, ...options });
  await t.check(200);
  await t.check(500);
  const token = linkOf(t.sent()[0]!);
  const inspect = (tok = token) => t.call<AckLinkInfo>("GET", `/api/ack/${tok}`);
  const act = (tok = token) => t.call<{ problem: Problem }>("POST", `/api/ack/${tok}`);
  return { ...t, token, inspect, act };
}

describe("acknowledgement links", () => {
  test("no public address: no link in the message or the payload", async () => {
    const t = await setup();
    await t.check(200);
    await t.check(500);
    const [message] = t.sent();
    expect(message!.title).toBe("🔴 Monitor down: Shop");
    expect(message!.lines.some((l) => l.startsWith("Acknowledge"))).toBe(false);
    expect(message!.events[0]!.facts.ackUrl).toBeUndefined();
  });

  test("the link says what it is for without acting, acknowledges once (via link, the channel named), then answers 409", async () => {
    const t = await down();
    const info = await t.inspect();
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ channel: "Hook", problem: { targetType: "monitor", targetId: t.monitor, targetName: "Shop", condition: "down", ack: null } });
    expect(info.body.expiresAt).toBeGreaterThan(t.now() + ACK_LINK_TTL_MS - 120_000);
    expect((await t.problems())[0]!.ack).toBeNull(); // the GET changed nothing

    const done = await t.act();
    expect(done.status).toBe(200);
    expect(done.body.problem.ack).toEqual({ at: expect.any(Number), by: "via link (Hook)", via: "link", channel: "Hook" });
    expect((await t.problems(t.vera.token))[0]!.ack).toEqual(done.body.problem.ack);

    const twice = await t.act();
    expect([twice.status, twice.body.code]).toEqual([409, "ALREADY_ACKNOWLEDGED"]);
    expect(twice.body.message).toContain("via link (Hook)");
    // The page still shows whose it is.
    expect((await t.inspect()).body.problem.ack).toEqual(done.body.problem.ack);
    // Signed in, the same answer.
    expect((await t.ack(t.alice.token)).body.code).toBe("ALREADY_ACKNOWLEDGED");
  });

  test("a reminder carries a fresh link to the same occurrence; acknowledging through it stops the reminders", async () => {
    const t = await down({ reminderMinutes: 30 });
    t.advanceClock(30 * 60_000);
    await t.remind();
    const reminder = t.sent()[1]!;
    expect(reminder.title).toBe("🔴 Monitor still down: Shop");
    const fresh = linkOf(reminder);
    expect(fresh).not.toBe(t.token);
    expect((await t.act(fresh)).status).toBe(200);
    t.advanceClock(30 * 60_000);
    await t.remind();
    expect(t.sent()).toHaveLength(2);
    // The first link names the same occurrence: acknowledged already.
    expect((await t.act()).body.code).toBe("ALREADY_ACKNOWLEDGED");
  });

  test("expired after seven days: 400 ACK_LINK_EXPIRED", async () => {
    const t = await down();
    t.advanceClock(ACK_LINK_TTL_MS + 1_000);
    for (const res of [await t.inspect(), await t.act()]) expect([res.status, res.body.code]).toEqual([400, "ACK_LINK_EXPIRED"]);
    expect((await t.problems())[0]!.ack).toBeNull();
  });

  test("forged or garbled: 400 ACK_LINK_INVALID, nothing acknowledged", async () => {
    const t = await down();
    const [header, payload, signature] = t.token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, ti: claims.ti + 1 })).toString("base64url")}.${signature}`;
    const otherSecret = await createAckLinks({ secret: "another-secret-another-secret-0123456789" }).sign({ targetType: "monitor", targetId: t.monitor, condition: "down", since: claims.s, channelId: claims.ch });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${payload}.`;
    const bad = [tampered, otherSecret, unsigned, `${t.token.slice(0, -2)}xx`, "garbage", "a.b.c", encodeURIComponent("%00"), "x".repeat(2_000), t.token.replace(".", "")];
    for (const token of bad) {
      for (const res of [await t.inspect(token), await t.act(token)]) {
        expect([token.slice(0, 20), res.status, res.body.code]).toEqual([token.slice(0, 20), 400, "ACK_LINK_INVALID"]);
      }
    }
    // A session token is signed with the same secret but is no link.
    expect((await t.act(t.alice.token)).body.code).toBe("ACK_LINK_INVALID");
    expect((await t.problems())[0]!.ack).toBeNull();
  });

  test("the problem resolved since: 409 PROBLEM_RESOLVED, also once it is down again (another occurrence)", async () => {
    const t = await down();
    await t.check(200);
    for (const res of [await t.inspect(), await t.act()]) expect([res.status, res.body.code]).toEqual([409, "PROBLEM_RESOLVED"]);
    await t.check(500);
    const fresh = linkOf(t.sent().at(-1)!);
    for (const res of [await t.inspect(), await t.act()]) expect(res.body.code).toBe("PROBLEM_RESOLVED");
    expect((await t.problems())[0]!.ack).toBeNull();
    expect((await t.act(fresh)).status).toBe(200);
  });

  test("each channel's message carries its own link, naming that channel", async () => {
    const t = await setup({ publicUrl: PUBLIC });
    const second = (await t.call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { token: t.token, body: { name: "Ops mail", type: "webhook", config: { url: `${t.hookUrl()}/second` } } })).body.channel.id;
    await t.call("PUT", `/api/notifications/settings/monitors/${t.monitor}`, { token: t.token, body: { enabled: true, channelIds: [t.channel, second], events: { down: true, recovery: true } } });
    await t.check(200);
    await t.check(500);
    const tokens = t.sent().map(linkOf);
    expect(new Set(tokens).size).toBe(2);
    const byChannel = Object.fromEntries(await Promise.all(tokens.map(async (token) => [(await t.call<AckLinkInfo>("GET", `/api/ack/${token}`)).body.channel, token])));
    expect(Object.keys(byChannel).sort()).toEqual(["Hook", "Ops mail"]);
    // That channel deleted since: its link still acknowledges, named plainly.
    await t.call("DELETE", `/api/notifications/channels/${second}`, { token: t.token });
    const done = await t.call<{ problem: Problem }>("POST", `/api/ack/${byChannel["Ops mail"]}`);
    expect(done.body.problem.ack).toMatchObject({ by: "via link", via: "link", channel: null });
  });

  test("too many bad links from one address: 429 with Retry-After", async () => {
    const t = await down();
    for (let i = 0; i < LINK_FAILURES_MAX; i++) expect((await t.call("GET", `/api/ack/bad-${i}`)).status).toBe(400);
    const limited = await t.call("GET", `/api/ack/${t.token}`);
    expect([limited.status, limited.body.code]).toEqual([429, "TOO_MANY_REQUESTS"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
