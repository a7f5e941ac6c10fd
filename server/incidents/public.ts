// Wire types of incidents (the UI imports them through ui/api/incidents.ts). Times are Unix ms (UTC).

export const INCIDENT_IMPACTS = ["minor", "major", "critical"] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];
/** An update's state; the incident's is its latest update's. "resolved" closes it (a later update may reopen it). */
export const INCIDENT_STATES = ["investigating", "identified", "monitoring", "resolved"] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

export const INCIDENT_TITLE_MAX = 200;
export const INCIDENT_MESSAGE_MAX = 5000;
export const INCIDENT_TARGETS_MAX = 500;
/** The status pages show resolved incidents this far back. */
export const INCIDENT_HISTORY_DAYS = 90;

export interface IncidentUpdate {
  id: number;
  state: IncidentState;
  /** Plain text: line breaks kept, links made clickable by the page; never HTML. */
  message: string;
  at: number;
  /** Who posted it (null: the account was deleted). Only signed-in callers see it. */
  createdBy?: string | null;
}

export interface PublicIncident {
  id: number;
  title: string;
  impact: IncidentImpact;
  state: IncidentState;
  monitorIds: number[];
  agentIds: number[];
  /** Pages it is posted on besides those showing a monitor or agent it affects. */
  pageIds: number[];
  createdAt: number;
  updatedAt: number;
  resolvedAt: number | null;
  /** Oldest first. */
  updates: IncidentUpdate[];
}

/** POST /api/incidents: the incident and its first update. */
export interface IncidentInput {
  title: string;
  impact: IncidentImpact;
  monitorIds?: number[];
  agentIds?: number[];
  pageIds?: number[];
  update: { state: IncidentState; message: string; at?: number };
}

/** PUT /api/incidents/:id: what it is and what it affects (the timeline has its own calls). */
export type IncidentPatch = Omit<IncidentInput, "update">;

/** POST /api/incidents/:id/updates, PUT /api/incidents/:id/updates/:updateId. */
export interface IncidentUpdateInput {
  state: IncidentState;
  message: string;
  /** Defaults to now; may be dated back (not into the future). */
  at?: number;
}

/** An incident as a status page shows it: no targets, no authors. */
export interface StatusIncident {
  id: number;
  title: string;
  impact: IncidentImpact;
  state: IncidentState;
  createdAt: number;
  resolvedAt: number | null;
  /** Names shown on this page that it affects. */
  affects: string[];
  /** Oldest first. */
  updates: { state: IncidentState; message: string; at: number }[];
}
