import { describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import type { PublicStatusPage } from "../status/public";
import type { PublicIncident } from "./public";

// /api/incidents: the timeline and the state that follows it, bad input, and what status pages show of incidents.

const MIN = 60_000;

async function setup() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const monitor = async (name: string) => (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name, url: "http://127.0.0.1:9/", active: false } })).body.monitor.id;
  type Reply = { incident: PublicIncident };
  const create = (body: Record<string, unknown>) => t.call<Reply>("POST", "/api/incidents", { token, body });
  const post = (id: number, body: Record<string, unknown>) => t.call<Reply>("POST", `/api/incidents/${id}/updates`, { token, body });
  return { ...t, token, monitor, create, post };
}

describe("incidents", () => {
  test("a timeline: the state follows the latest update; resolved closes, a later update reopens", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const res = await t.create({ title: "Checkout errors", impact: "major", monitorIds: [shop], update: { state: "investigating", message: "Payments fail for some.\nLooking into it: https://example.com/x" } });
    expect(res.status).toBe(201);
    const incident = res.body.incident;
    expect(incident).toMatchObject({ title: "Checkout errors", impact: "major", state: "investigating", monitorIds: [shop], agentIds: [], pageIds: [], resolvedAt: null });
    expect(incident.updates).toHaveLength(1);
    expect(incident.updates[0]).toMatchObject({ state: "investigating", message: "Payments fail for some.\nLooking into it: https://example.com/x", createdBy: "alice" });

    const identified = await t.post(incident.id, { state: "identified", message: "The provider's API times out." });
    expect([identified.status, identified.body.incident.state]).toEqual([201, "identified"]);
    // An update dated back does not become the latest.
    const early = await t.post(incident.id, { state: "monitoring", message: "Back-dated note", at: incident.createdAt - 10 * MIN });
    expect(early.body.incident.state).toBe("identified");
    expect(early.body.incident.updates.map((u) => u.message)).toEqual(["Back-dated note", "Payments fail for some.\nLooking into it: https://example.com/x", "The provider's API times out."]);

    const resolved = await t.post(incident.id, { state: "resolved", message: "Fixed." });
    expect(resolved.body.incident.state).toBe("resolved");
    expect(resolved.body.incident.resolvedAt).toBe(resolved.body.incident.updates.at(-1)!.at);
    expect((await t.call<{ incidents: PublicIncident[] }>("GET", "/api/incidents?state=open", { token: t.token })).body.incidents).toEqual([]);
    expect((await t.call<{ incidents: PublicIncident[] }>("GET", "/api/incidents?state=resolved", { token: t.token })).body.incidents.map((i) => i.id)).toEqual([incident.id]);

    const reopened = await t.post(incident.id, { state: "investigating", message: "It is back." });
    expect(reopened.body.incident).toMatchObject({ state: "investigating", resolvedAt: null });

    // Correct an update, delete one; the last one stays.
    const last = reopened.body.incident.updates.at(-1)!;
    const edited = await t.call<{ incident: PublicIncident }>("PUT", `/api/incidents/${incident.id}/updates/${last.id}`, { token: t.token, body: { state: "resolved", message: "False alarm." } });
    expect(edited.body.incident).toMatchObject({ state: "resolved" });
    const deleted = await t.call<{ incident: PublicIncident }>("DELETE", `/api/incidents/${incident.id}/updates/${last.id}`, { token: t.token });
    expect(deleted.body.incident.updates).toHaveLength(4);
    expect(deleted.body.incident.state).toBe("resolved");

    const edit = await t.call<{ incident: PublicIncident }>("PUT", `/api/incidents/${incident.id}`, { token: t.token, body: { title: "Checkout errors (payments)", impact: "critical", monitorIds: [] } });
    expect(edit.body.incident).toMatchObject({ title: "Checkout errors (payments)", impact: "critical", monitorIds: [] });
    expect((await t.call("DELETE", `/api/incidents/${incident.id}`, { token: t.token })).status).toBe(200);
    expect((await t.call("GET", `/api/incidents/${incident.id}`, { token: t.token })).status).toBe(404);
  });

  test("an incident keeps at least one update", async () => {
    const t = await setup();
    const { incident } = (await t.create({ title: "Slow", impact: "minor", update: { state: "investigating", message: "Slow pages." } })).body;
    const res = await t.call("DELETE", `/api/incidents/${incident.id}/updates/${incident.updates[0].id}`, { token: t.token });
    expect([res.status, res.body.code]).toEqual([409, "INCIDENT_LAST_UPDATE"]);
  });

  test("bad input is refused with a clear message", async () => {
    const t = await setup();
    const ok = { title: "Outage", impact: "major", update: { state: "investigating", message: "Down." } };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, title: " " }, "INCIDENT_TITLE_INVALID"],
      [{ ...ok, impact: "huge" }, "VALIDATION"],
      [{ ...ok, update: { state: "fixed", message: "x" } }, "VALIDATION"],
      [{ ...ok, update: { state: "investigating", message: "  " } }, "INCIDENT_MESSAGE_INVALID"],
      [{ ...ok, update: { state: "investigating", message: "x", at: Date.now() + 3_600_000 } }, "INCIDENT_TIME_IN_FUTURE"],
      [{ ...ok, monitorIds: [999] }, "MONITOR_NOT_FOUND"],
      [{ ...ok, agentIds: [999] }, "AGENT_NOT_FOUND"],
      [{ ...ok, pageIds: [999] }, "STATUS_PAGE_NOT_FOUND"],
      [{ title: "No update", impact: "minor" }, "VALIDATION"],
    ];
    for (const [body, code] of cases) {
      const res = await t.create(body);
      expect([res.status, res.body.code, typeof res.body.message]).toEqual([400, code, "string"]);
    }
    expect((await t.post(999, { state: "resolved", message: "x" })).status).toBe(404);
    expect((await t.call("PUT", "/api/incidents/999/updates/1", { token: t.token, body: { state: "resolved", message: "x" } })).status).toBe(404);
    expect((await t.call("DELETE", "/api/incidents/999", { token: t.token })).status).toBe(404);
    expect((await t.call("GET", "/api/incidents/abc", { token: t.token })).status).toBe(400);
    expect((await t.call("GET", "/api/incidents")).status).toBe(401);
    expect((await t.call("POST", "/api/incidents", { body: ok })).status).toBe(401);
  });

  test("status pages: open incidents at the top, resolved ones in the history, each day's bar names its incidents", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const hidden = await t.monitor("Internal");
    await t.call("PUT", "/api/status/config", { token: t.token, body: { title: "Acme", description: "", monitorIds: [shop], agentIds: [], announcement: null } });
    const open = (await t.create({ title: "Checkout errors", impact: "major", monitorIds: [shop, hidden], update: { state: "identified", message: "Provider down." } })).body.incident;
    const old = (await t.create({ title: "Yesterday's blip", impact: "minor", monitorIds: [shop], update: { state: "investigating", message: "Blip.", at: Date.now() - 26 * 60 * MIN } })).body.incident;
    await t.post(old.id, { state: "resolved", message: "Gone.", at: Date.now() - 25 * 60 * MIN });
    const general = (await t.create({ title: "Everything slow", impact: "minor", update: { state: "monitoring", message: "Slow network." } })).body.incident;
    await t.create({ title: "Internal only", impact: "critical", monitorIds: [hidden], update: { state: "investigating", message: "Secret system." } });

    const page = (await t.call<{ page: PublicStatusPage }>("GET", "/api/status")).body.page;
    expect(page.incidents.open.map((i) => i.title)).toEqual(["Everything slow", "Checkout errors"]);
    expect(page.incidents.open[1]).toEqual({
      id: open.id,
      title: "Checkout errors",
      impact: "major",
      state: "identified",
      createdAt: open.createdAt,
      resolvedAt: null,
      affects: ["Shop"],
      updates: [{ state: "identified", message: "Provider down.", at: open.updates[0].at }],
    });
    expect(page.incidents.resolved.map((i) => i.title)).toEqual(["Yesterday's blip"]);
    const days = page.monitors[0].days;
    const dayOf = (at: number) => days.find((d) => d.date <= at && at < d.date + 24 * 60 * MIN)!;
    expect(days.at(-1)!.incidents).toContain(open.id);
    expect(dayOf(old.createdAt).incidents).toContain(old.id);
    expect(days.filter((d) => d.incidents?.includes(old.id)).length).toBeLessThanOrEqual(2); // 26 h to 25 h ago: one or two UTC days
    expect(days.slice(0, -3).every((d) => d.incidents === undefined)).toBe(true);
    const text = JSON.stringify(page);
    expect(text).not.toContain("Internal");
    expect(text).not.toContain("Secret system");
    expect(text).not.toContain("alice");
    expect(general.pageIds).toEqual([]);
  });
});
