import { AGENT_NAME_MAX, type AgentLiveMessages, type AgentStatus, type PublicAgent } from "../../api/agents";

// Pure logic of the agent screens (unit-tested in model.test.ts).
//
// The agent list is one piece of state that two sources feed: a periodic GET /api/agents (the whole list) and,
// later, pushed messages from /api/live. Both go through these pure functions, so either source can be used alone.

/** What the server may push about agents (the payloads of server events "agent.status" and "agent.report"). */
export type AgentPush =
  | { type: "agent.status"; payload: { agentId: number; from?: AgentStatus; to: AgentStatus; at?: number } }
  | { type: "agent.report"; payload: AgentLiveMessages["agent.report"] }
  | { type: "agent.removed"; payload: { agentId: number } };

/** Applies one pushed message to the list; returns the same array when nothing changed. */
export function applyAgentPush(agents: PublicAgent[], push: AgentPush): PublicAgent[] {
  switch (push.type) {
    case "agent.status": {
      const { agentId, to, at } = push.payload;
      const index = agents.findIndex((a) => a.id === agentId);
      if (index === -1 || agents[index].status === to) return agents;
      const next = agents.slice();
      next[index] = { ...agents[index], status: to, ...(to === "online" && at ? { lastSeenAt: at } : {}) };
      return next;
    }
    case "agent.report": {
      const agent = push.payload;
      const index = agents.findIndex((a) => a.id === agent.id);
      if (index === -1) return sortAgents([...agents, { ...agent, maintenance: false }]);
      // An older snapshot (a push overtaken by a poll) never replaces a newer one.
      if ((agents[index].lastSeenAt ?? 0) > (agent.lastSeenAt ?? 0)) return agents;
      const next = agents.slice();
      // A report does not say whether the agent is in maintenance: that stays as the list (or maintenance.change) had it.
      next[index] = { ...agent, maintenance: agents[index].maintenance };
      return next;
    }
    case "agent.removed": {
      const next = agents.filter((a) => a.id !== push.payload.agentId);
      return next.length === agents.length ? agents : next;
    }
  }
}

/** The list order: by name (natural, case-insensitive), then id. */
export function sortAgents(agents: PublicAgent[]): PublicAgent[] {
  return [...agents].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" }) || a.id - b.id);
}

/** What needs attention first: offline, then still connecting, then online; the given order within a group. */
const STATUS_ORDER: Record<PublicAgent["status"], number> = { offline: 0, connecting: 1, online: 2 };
export const AGENT_STATUS_FILTERS = ["offline", "connecting", "online"] as const;

export function sortForTriage(agents: readonly PublicAgent[]): PublicAgent[] {
  return [...agents].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]); // stable: keeps name order
}

/** `?status=offline` → "offline"; anything else → null (no filter). */
export function parseAgentStatusFilter(search: string): PublicAgent["status"] | null {
  const value = new URLSearchParams(search).get("status");
  return (AGENT_STATUS_FILTERS as readonly string[]).includes(value ?? "") ? (value as PublicAgent["status"]) : null;
}

/**
 * What finishes the install of an agent that registered but never reported: the guide's step 2b (`vigil-agent run`)
 * for its OS (as the agent named it at registration: "Windows_NT 10.0…" on Windows) and its interval.
 */
export function finishCommand(agent: Pick<PublicAgent, "os" | "interval">): string {
  return /^windows/i.test(agent.os) ? `.\\vigil-agent.exe run --interval ${agent.interval}` : `./vigil-agent run --interval ${agent.interval}`;
}

/** The fullest disk of a sample (highest usage), or null without disks. */
export function fullestDisk<D extends { usageRate: number }>(disks: D[] | undefined | null): D | null {
  if (!disks?.length) return null;
  return disks.reduce((worst, d) => (d.usageRate > worst.usageRate ? d : worst));
}

/** Sum of the receive and send rates over every interface. */
export function totalRates(network: { rxRate: number; txRate: number }[] | undefined | null): { rx: number; tx: number } | null {
  if (!network?.length) return null;
  return network.reduce((sum, n) => ({ rx: sum.rx + n.rxRate, tx: sum.tx + n.txRate }), { rx: 0, tx: 0 });
}

/** Ids in `now` that were not in `before`: agents that registered meanwhile. */
export function newAgents(before: ReadonlySet<number>, now: PublicAgent[]): PublicAgent[] {
  return now.filter((a) => !before.has(a.id)).sort((a, b) => b.createdAt - a.createdAt);
}

// --- the remembered view of /agents ---------------------------------------------------------------------------

export type AgentView = "cards" | "table";
export const VIEW_STORAGE_KEY = "vigil.agents.view";

export function loadView(storage: Pick<Storage, "getItem"> | null = safeStorage()): AgentView {
  try {
    return storage?.getItem(VIEW_STORAGE_KEY) === "table" ? "table" : "cards";
  } catch {
    return "cards";
  }
}

export function saveView(view: AgentView, storage: Pick<Storage, "setItem"> | null = safeStorage()) {
  try {
    storage?.setItem(VIEW_STORAGE_KEY, view);
  } catch {
    // storage full or disabled: the choice lasts for this page only
  }
}

function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** A test id / DOM-safe name for a mount point: "/" → "root", "/var/lib" → "var-lib", "C:\\" → "c". */
export function diskSlug(mountPoint: string): string {
  const slug = mountPoint
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "root";
}

/** The i18n key of what is wrong with an agent name, or null: required, 1–100 characters (as the server checks). */
export function checkAgentName(value: string): "agents.form.nameRequired" | "agents.form.nameTooLong" | null {
  const name = value.trim();
  if (!name) return "agents.form.nameRequired";
  if (name.length > AGENT_NAME_MAX) return "agents.form.nameTooLong";
  return null;
}
