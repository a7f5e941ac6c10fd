// `maintenance:` — maintenance windows by key: title, description, scope (all, or the monitors listed by key) and the
// schedule, checked by POST /api/maintenance's own rules (server/maintenance/service.ts windowValues). Instants are
// ISO 8601 times (or Unix milliseconds); export writes ISO times in UTC. The agents a window names are not in the
// file and stay as the UI left them; an early end ("end now") is forgotten when the file changes the window, as an
// edit in the UI forgets it.
import { eq } from "drizzle-orm";
import { t } from "elysia";
import type { Orm } from "../../db/database";
import type { Tables } from "../../db/pg-schema";
import { HttpError } from "../../http/http-error";
import { MAINTENANCE_DESCRIPTION_MAX, MAINTENANCE_TARGETS_MAX, MAINTENANCE_TITLE_MAX, type MaintenanceScope } from "../../maintenance/public";
import { SCHEDULE_KINDS, type Schedule, type ScheduleKind } from "../../maintenance/schedule";
import { windowValues } from "../../maintenance/service";
import { scheduleOf } from "../../maintenance/store";
import { stable, type Form } from "../model";
import { key, keyRef } from "../schema-parts";
import { EntryProblem, shortenBy, type SectionDef, type SectionRow } from "./section";

const INSTANTS = ["startsAt", "endsAt", "activeFrom", "activeUntil"] as const;
const instant = (what: string) =>
  t.Optional(t.Union([t.Integer({ minimum: 0 }), t.String({ maxLength: 40 })], { error: `schedule.${what} must be an ISO 8601 time (2026-05-01T02:00:00Z) or Unix milliseconds` }));

const schedule = t.Object(
  {
    kind: t.UnionEnum(SCHEDULE_KINDS as [ScheduleKind, ...ScheduleKind[]], { error: `schedule.kind must be one of ${SCHEDULE_KINDS.join(", ")}` }),
    startsAt: instant("startsAt"),
    endsAt: instant("endsAt"),
    time: t.Optional(t.String({ maxLength: 5, error: "schedule.time must be HH:MM" })),
    weekdays: t.Optional(t.Array(t.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7, error: "schedule.weekdays must be weekdays 1 (Monday) to 7 (Sunday)" })),
    monthDays: t.Optional(t.Array(t.Integer({ minimum: -1, maximum: 31 }), { maxItems: 32, error: "schedule.monthDays must be days 1-31, or -1 for the last day" })),
    cron: t.Optional(t.String({ maxLength: 200, error: "schedule.cron must be a cron expression of at most 200 characters" })),
    durationMinutes: t.Optional(t.Integer({ error: "schedule.durationMinutes must be a whole number of minutes" })),
    timezone: t.Optional(t.String({ maxLength: 64, error: "schedule.timezone must be an IANA time zone such as Europe/Berlin" })),
    activeFrom: instant("activeFrom"),
    activeUntil: instant("activeUntil"),
  },
  { additionalProperties: false, error: "schedule must be an object with a kind", description: "When the window is: the fields of POST /api/maintenance's schedule (docs/maintenance.md)." },
);

const entry = t.Object(
  {
    key,
    title: t.String({ minLength: 1, maxLength: MAINTENANCE_TITLE_MAX, error: `Title must be 1-${MAINTENANCE_TITLE_MAX} characters` }),
    description: t.Optional(t.String({ maxLength: MAINTENANCE_DESCRIPTION_MAX, error: `Description must be at most ${MAINTENANCE_DESCRIPTION_MAX} characters` })),
    scope: t.Optional(t.UnionEnum(["all", "targets"], { error: "scope must be all or targets", description: "all: every monitor and agent; targets (the default): the monitors listed." })),
    monitors: t.Optional(t.Array(keyRef("monitor or group"), { maxItems: MAINTENANCE_TARGETS_MAX, error: "monitors must be a list of monitor keys" })),
    schedule,
  },
  { additionalProperties: false, description: "A maintenance window: alerts about what it covers are silenced while it is on." },
);

/** The API's refusals by code, and the field each is about. */
const FIELD_OF_CODE: [string, string][] = [
  ["MAINTENANCE_TITLE", "title"],
  ["MAINTENANCE_DESCRIPTION", "description"],
  ["MAINTENANCE_NO_TARGETS", "monitors"],
  ["MAINTENANCE_TOO_MANY", "monitors"],
  ["MAINTENANCE_SCHEDULE", "schedule"],
];

interface Kept {
  agentIds: number[];
  /** A manual window's start when the file gives none (else "now" would change on every apply). */
  manualStart: number | null;
}

function resolve(e: Form, monitorKeys: Set<string> | null, current: SectionRow | undefined, now: number): Form {
  const given = { ...(e.schedule as Form) };
  for (const field of INSTANTS) {
    const v = given[field];
    if (typeof v !== "string") continue;
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) throw new EntryProblem(["schedule", field], `schedule.${field} must be an ISO 8601 time (2026-05-01T02:00:00Z) or Unix milliseconds`);
    given[field] = ms;
  }
  const monitors = [...new Set((e.monitors as string[] | undefined) ?? [])].sort();
  (e.monitors as string[] | undefined)?.forEach((k, i) => {
    if (monitorKeys && !monitorKeys.has(k)) throw new EntryProblem(["monitors", i], `no monitor or group has the key "${k}"`);
  });
  const kept = current?.kept as Kept | undefined;
  const scope = (e.scope as MaintenanceScope | undefined) ?? "targets";
  try {
    const v = windowValues(
      {
        title: e.title as string,
        description: e.description as string | undefined,
        scope,
        // Monitors stand in by their place in the list: the keys were checked above.
        monitorIds: monitors.map((_, i) => i + 1),
        agentIds: kept?.agentIds ?? [],
        schedule: given as Partial<Schedule> & { kind: ScheduleKind },
      },
      kept?.manualStart ?? now,
      () => true,
    );
    return { title: v.title, description: v.description, scope: v.scope, monitors: v.scope === "all" ? [] : monitors, schedule: v.schedule };
  } catch (err) {
    const field = err instanceof HttpError ? FIELD_OF_CODE.find(([prefix]) => err.code.startsWith(prefix))?.[1] : undefined;
    throw field ? new EntryProblem([field], (err as Error).message) : err;
  }
}

export const maintenance: SectionDef = {
  section: "maintenance",
  kind: "maintenance",
  entry,
  keyField: "key",

  async read(orm, t, refs) {
    const rows = await orm.select().from(t.maintenanceWindows).orderBy(t.maintenanceWindows.id);
    const monitors = await orm.select().from(t.maintenanceMonitors);
    const agents = await orm.select().from(t.maintenanceAgents);
    return rows.map((r): SectionRow => {
      const schedule = scheduleOf(r);
      const keys = r.scope === "all" ? [] : monitors.filter((m) => m.windowId === r.id).map((m) => refs.monitorKey(m.monitorId)).sort();
      const kept: Kept = { agentIds: agents.filter((a) => a.windowId === r.id).map((a) => a.agentId), manualStart: r.kind === "manual" ? r.startsAt : null };
      return { objectId: String(r.id), name: r.title, form: { title: r.title, description: r.description, scope: r.scope, monitors: keys, schedule }, kept };
    });
  },

  resolve: (e, ctx) => resolve(e, ctx.monitorKeys, ctx.current, ctx.now),

  secrets: () => new Map(),

  shorten(e, ctx) {
    const full = (x: Form) => {
      try {
        return stable(resolve(x, null, ctx.current, ctx.now));
      } catch {
        return null;
      }
    };
    const s = { ...(e.schedule as Form) };
    // Instants as readable times; fields of other kinds (null, []) left out.
    for (const [field, value] of Object.entries(s)) {
      if (value === null || (Array.isArray(value) && value.length === 0)) delete s[field];
      else if ((INSTANTS as readonly string[]).includes(field) && typeof value === "number") s[field] = new Date(value).toISOString();
    }
    const out: Form = { ...e, schedule: s };
    if ((out.monitors as string[]).length === 0) delete out.monitors;
    return shortenBy(out, full, ["key", "title", "monitors"]);
  },

  async write(tx, t, form, current, refs, now) {
    const s = form.schedule as Schedule;
    const columns = { title: form.title as string, description: form.description as string, scope: form.scope as MaintenanceScope, ...s, updatedAt: now };
    let id: number;
    if (current) {
      id = Number(current.objectId);
      // As an edit in the UI: the window counts as written, an early end is forgotten.
      await tx.update(t.maintenanceWindows).set({ ...columns, cutAt: null }).where(eq(t.maintenanceWindows.id, id));
    } else {
      const [row] = await tx.insert(t.maintenanceWindows).values({ ...columns, createdAt: now }).returning({ id: t.maintenanceWindows.id });
      id = row!.id;
    }
    await writeTargets(tx, t, id, form.scope === "all" ? [] : (form.monitors as string[]).map(refs.monitorId), form.scope === "all" ? [] : ((current?.kept as Kept | undefined)?.agentIds ?? []));
    return String(id);
  },

  async remove(tx, t, objectId) {
    await tx.delete(t.maintenanceWindows).where(eq(t.maintenanceWindows.id, Number(objectId)));
  },
};

async function writeTargets(tx: Orm, t: Tables, windowId: number, monitorIds: number[], agentIds: number[]) {
  await tx.delete(t.maintenanceMonitors).where(eq(t.maintenanceMonitors.windowId, windowId));
  await tx.delete(t.maintenanceAgents).where(eq(t.maintenanceAgents.windowId, windowId));
  if (monitorIds.length) await tx.insert(t.maintenanceMonitors).values(monitorIds.map((monitorId) => ({ windowId, monitorId })));
  if (agentIds.length) await tx.insert(t.maintenanceAgents).values(agentIds.map((agentId) => ({ windowId, agentId })));
}
