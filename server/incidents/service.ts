// Incidents as one service: checks on what is written, the store, and the recent incidents kept in memory for the
// status pages (read again after any change, here or on another node).
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import { badRequest, conflict, notFound } from "../http/errors";
import {
  INCIDENT_HISTORY_DAYS,
  INCIDENT_MESSAGE_MAX,
  INCIDENT_TARGETS_MAX,
  INCIDENT_TITLE_MAX,
  type IncidentInput,
  type IncidentPatch,
  type IncidentUpdateInput,
  type PublicIncident,
} from "./public";
import { createIncidentStore, type IncidentValues } from "./store";

const DAY = 86_400_000;
/** An update may be dated this far ahead (clock skew between the author's machine and the server). */
const FUTURE_SLACK_MS = 60_000;

export interface IncidentServiceOptions {
  db: Db;
  bus: EventBus;
  now?: () => number;
  exists: (type: "monitor" | "agent", id: number) => boolean;
  pageExists: (id: number) => Promise<boolean>;
}

export const incidentNotFound = () => notFound("INCIDENT_NOT_FOUND", "Incident not found");

export function createIncidentService({ db, bus, now = Date.now, exists, pageExists }: IncidentServiceOptions) {
  const store = createIncidentStore(db, now);
  /** Open incidents and those resolved within the history the pages show (null: read again on next use). */
  let recent: Promise<PublicIncident[]> | null = null;
  const forget = () => {
    recent = null;
  };
  bus.on("settings.change", (e) => e.remote && e.area === "incidents" && forget());
  bus.on("monitor.change", (e) => e.action === "deleted" && forget());
  bus.on("agent.change", (e) => e.kind === "deleted" && forget());
  const changed = <T>(value: T): T => {
    forget();
    bus.emit("settings.change", { area: "incidents" });
    return value;
  };

  async function values(input: IncidentPatch): Promise<IncidentValues> {
    const title = input.title.trim();
    if (!title || title.length > INCIDENT_TITLE_MAX) throw badRequest("INCIDENT_TITLE_INVALID", `Title must be 1-${INCIDENT_TITLE_MAX} characters`);
    const monitorIds = [...new Set(input.monitorIds ?? [])];
    const agentIds = [...new Set(input.agentIds ?? [])];
    const pageIds = [...new Set(input.pageIds ?? [])];
    if (monitorIds.length + agentIds.length > INCIDENT_TARGETS_MAX) throw badRequest("INCIDENT_TOO_MANY_TARGETS", `An incident may name at most ${INCIDENT_TARGETS_MAX} monitors and agents`);
    const missingMonitor = monitorIds.find((id) => !exists("monitor", id));
    if (missingMonitor !== undefined) throw badRequest("MONITOR_NOT_FOUND", `Monitor ${missingMonitor} does not exist`);
    const missingAgent = agentIds.find((id) => !exists("agent", id));
    if (missingAgent !== undefined) throw badRequest("AGENT_NOT_FOUND", `Agent ${missingAgent} does not exist`);
    for (const id of pageIds) if (!(await pageExists(id))) throw badRequest("STATUS_PAGE_NOT_FOUND", `Status page ${id} does not exist`);
    return { title, impact: input.impact, monitorIds, agentIds, pageIds };
  }

  function update(input: IncidentUpdateInput): Required<IncidentUpdateInput> {
    const message = input.message.trim();
    if (!message || message.length > INCIDENT_MESSAGE_MAX) throw badRequest("INCIDENT_MESSAGE_INVALID", `The message must be 1-${INCIDENT_MESSAGE_MAX} characters`);
    const at = input.at ?? now();
    if (at > now() + FUTURE_SLACK_MS) throw badRequest("INCIDENT_TIME_IN_FUTURE", "An update cannot be dated in the future");
    return { state: input.state, message, at };
  }

  return {
    store,

    /** Newest first: `open` (not resolved), `resolved`, or all. */
    async list(state: "open" | "resolved" | "all" = "all"): Promise<PublicIncident[]> {
      const all = await store.list();
      return state === "all" ? all : all.filter((i) => (state === "open" ? i.state !== "resolved" : i.state === "resolved"));
    },
    get: (id: number) => store.get(id),

    /** Open incidents and those resolved within INCIDENT_HISTORY_DAYS: what status pages show (kept until a change). */
    recent(): Promise<PublicIncident[]> {
      if (!recent) {
        const read = store.list(now() - INCIDENT_HISTORY_DAYS * DAY);
        recent = read;
        read.catch(() => recent === read && forget());
      }
      return recent;
    },

    async create(input: IncidentInput, userId: number | null): Promise<PublicIncident> {
      const first = update(input.update);
      const created = changed(await store.create(await values(input), first, userId));
      bus.emit("incident.update", { incident: created, update: first });
      return created;
    },
    async update(id: number, patch: IncidentPatch): Promise<PublicIncident | undefined> {
      const v = await values(patch);
      const done = await store.update(id, v);
      return done && changed(done);
    },
    async addUpdate(id: number, input: IncidentUpdateInput, userId: number | null): Promise<PublicIncident | undefined> {
      const posted = update(input);
      const done = await store.addUpdate(id, posted, userId);
      if (done) bus.emit("incident.update", { incident: done, update: posted });
      return done && changed(done);
    },
    async editUpdate(id: number, updateId: number, input: IncidentUpdateInput): Promise<PublicIncident | undefined> {
      const done = await store.editUpdate(id, updateId, update(input));
      return done && changed(done);
    },
    async deleteUpdate(id: number, updateId: number): Promise<PublicIncident | undefined> {
      const done = await store.deleteUpdate(id, updateId);
      if (done === "missing") return undefined;
      if (done === "last") throw conflict("INCIDENT_LAST_UPDATE", "An incident keeps at least one update: delete the incident instead");
      return changed(done);
    },
    async remove(id: number): Promise<boolean> {
      return (await store.remove(id)) && changed(true);
    },
  };
}

export type IncidentService = ReturnType<typeof createIncidentService>;
