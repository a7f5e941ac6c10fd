import type { IncidentInput, IncidentPatch, IncidentUpdateInput, PublicIncident } from "../../server/incidents/public";
import { api } from "./client";

// The wire types and limits are the server's (server/incidents/public.ts).
export type * from "../../server/incidents/public";
export { INCIDENT_IMPACTS, INCIDENT_MESSAGE_MAX, INCIDENT_STATES, INCIDENT_TITLE_MAX } from "../../server/incidents/public";

type Reply = { incident: PublicIncident };
export const listIncidents = (state: "open" | "resolved" | "all" = "all") => api.get<{ incidents: PublicIncident[] }>(`/api/incidents?state=${state}`);
export const getIncident = (id: number) => api.get<Reply>(`/api/incidents/${id}`);
export const createIncident = (input: IncidentInput) => api.post<Reply>("/api/incidents", input);
export const updateIncident = (id: number, patch: IncidentPatch) => api.put<Reply>(`/api/incidents/${id}`, patch);
export const deleteIncident = (id: number) => api.delete<object>(`/api/incidents/${id}`);
export const postIncidentUpdate = (id: number, update: IncidentUpdateInput) => api.post<Reply>(`/api/incidents/${id}/updates`, update);
export const editIncidentUpdate = (id: number, updateId: number, update: IncidentUpdateInput) => api.put<Reply>(`/api/incidents/${id}/updates/${updateId}`, update);
export const deleteIncidentUpdate = (id: number, updateId: number) => api.delete<Reply>(`/api/incidents/${id}/updates/${updateId}`);
