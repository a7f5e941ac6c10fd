import { describe, expect, test } from "bun:test";
import type { PublicAgent } from "../../api/agents";
import { applyAgentPush, checkAgentName, diskSlug, finishCommand, fullestDisk, loadView, newAgents, parseAgentStatusFilter, saveView, sortAgents, sortForTriage, totalRates, VIEW_STORAGE_KEY } from "./model";

function agent(id: number, over: Partial<PublicAgent> = {}): PublicAgent {
  return {
    id,
    name: `host-${id}`,
    location: null,
    hostname: `host-${id}`,
    ips: ["10.0.0.1"],
    os: "Linux",
    kernel: "6.1",
    arch: "x64",
    agentVersion: "0.1.0",
    maintenance: false,
    interval: 10,
    uptime: 100,
    createdAt: 1_000 * id,
    lastSeenAt: 5_000,
    latest: null,
    status: "online",
    ...over,
  };
}

describe("applyAgentPush", () => {
  const list = [agent(1), agent(2, { status: "connecting", lastSeenAt: null })];

  test("a status change updates that agent only; a repeat changes nothing", () => {
    const next = applyAgentPush(list, { type: "agent.status", payload: { agentId: 1, from: "online", to: "offline", at: 9_000 } });
    expect(next.map((a) => a.status)).toEqual(["offline", "connecting"]);
    expect(next[1]).toBe(list[1]);
    expect(applyAgentPush(next, { type: "agent.status", payload: { agentId: 1, to: "offline" } })).toBe(next);
    expect(applyAgentPush(list, { type: "agent.status", payload: { agentId: 99, to: "offline" } })).toBe(list);
  });

  test("coming online records the time as last seen", () => {
    const next = applyAgentPush(list, { type: "agent.status", payload: { agentId: 2, to: "online", at: 7_000 } });
    expect(next[1]).toMatchObject({ status: "online", lastSeenAt: 7_000 });
  });

  test("a report replaces the snapshot, adds an unknown agent in name order, and never goes back in time", () => {
    const fresh = agent(1, { lastSeenAt: 6_000, uptime: 200 });
    expect(applyAgentPush(list, { type: "agent.report", payload: fresh })[0]).toEqual(fresh);
    // A report does not say whether the agent is in maintenance: what the list knew stays.
    const inMaintenance = applyAgentPush(list.map((a) => ({ ...a, maintenance: true })), { type: "agent.report", payload: fresh });
    expect(inMaintenance[0]).toEqual({ ...fresh, maintenance: true });
    const stale = agent(1, { lastSeenAt: 4_000 });
    expect(applyAgentPush(list, { type: "agent.report", payload: stale })).toBe(list);
    const added = applyAgentPush(list, { type: "agent.report", payload: agent(3, { name: "a-first" }) });
    expect(added.map((a) => a.id)).toEqual([3, 1, 2]);
  });

  test("a removal drops the agent", () => {
    expect(applyAgentPush(list, { type: "agent.removed", payload: { agentId: 1 } }).map((a) => a.id)).toEqual([2]);
    expect(applyAgentPush(list, { type: "agent.removed", payload: { agentId: 9 } })).toBe(list);
  });
});

test("sortAgents: natural, case-insensitive name order, then id", () => {
  const sorted = sortAgents([agent(1, { name: "web-10" }), agent(2, { name: "Web-2" }), agent(3, { name: "db" }), agent(4, { name: "db" })]);
  expect(sorted.map((a) => a.id)).toEqual([3, 4, 2, 1]);
});

test("sortForTriage: offline first, then connecting, then online, name order kept within", () => {
  const byName = sortAgents([
    agent(1, { name: "a", status: "online" }),
    agent(2, { name: "b", status: "offline" }),
    agent(3, { name: "c", status: "connecting" }),
    agent(4, { name: "d", status: "offline" }),
  ]);
  expect(sortForTriage(byName).map((a) => a.id)).toEqual([2, 4, 3, 1]);
});

test("parseAgentStatusFilter: the three statuses, anything else is no filter", () => {
  expect(parseAgentStatusFilter("?status=offline")).toBe("offline");
  expect(parseAgentStatusFilter("?status=connecting")).toBe("connecting");
  expect(parseAgentStatusFilter("?status=down")).toBeNull();
  expect(parseAgentStatusFilter("")).toBeNull();
});

test("fullestDisk and totalRates", () => {
  expect(fullestDisk([])).toBeNull();
  expect(fullestDisk([{ usageRate: 10, m: "/" }, { usageRate: 80, m: "/data" }, { usageRate: 30, m: "/boot" }])?.m).toBe("/data");
  expect(totalRates(undefined)).toBeNull();
  expect(totalRates([{ rxRate: 10, txRate: 1 }, { rxRate: 5, txRate: 2 }])).toEqual({ rx: 15, tx: 3 });
});

test("newAgents: those not seen before, newest first", () => {
  const found = newAgents(new Set([1]), [agent(1), agent(2), agent(3)]);
  expect(found.map((a) => a.id)).toEqual([3, 2]);
});

test("the view choice is read and written under vigil.agents.view, cards by default", () => {
  const store = new Map<string, string>();
  const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  expect(loadView(storage)).toBe("cards");
  saveView("table", storage);
  expect(store.get(VIEW_STORAGE_KEY)).toBe("table");
  expect(loadView(storage)).toBe("table");
  store.set(VIEW_STORAGE_KEY, "nonsense");
  expect(loadView(storage)).toBe("cards");
  expect(loadView(null)).toBe("cards");
  const broken = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); } };
  expect(loadView(broken)).toBe("cards");
  expect(() => saveView("table", broken)).not.toThrow();
});

test("diskSlug", () => {
  expect(diskSlug("/")).toBe("root");
  expect(diskSlug("/var/lib")).toBe("var-lib");
  expect(diskSlug("/mnt/Data 2")).toBe("mnt-data-2");
  expect(diskSlug("C:\\")).toBe("c");
});

test("checkAgentName: required, at most 100 characters once trimmed", () => {
  expect(checkAgentName("")).toBe("agents.form.nameRequired");
  expect(checkAgentName("   ")).toBe("agents.form.nameRequired");
  expect(checkAgentName("web-1")).toBeNull();
  expect(checkAgentName("x".repeat(100))).toBeNull();
  expect(checkAgentName(` ${"x".repeat(100)} `)).toBeNull();
  expect(checkAgentName("x".repeat(101))).toBe("agents.form.nameTooLong");
});

describe("finishCommand", () => {
  test("the guide's run step for the agent's OS and interval", () => {
    expect(finishCommand({ os: "Debian GNU/Linux 12 (bookworm)", interval: 10 })).toBe("./vigil-agent run --interval 10");
    expect(finishCommand({ os: "Darwin 23.4.0", interval: 30 })).toBe("./vigil-agent run --interval 30");
    expect(finishCommand({ os: "Windows_NT 10.0.22631", interval: 5 })).toBe(".\\vigil-agent.exe run --interval 5");
  });
});
