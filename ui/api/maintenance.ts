import type { MaintenanceInput, MaintenanceNowInput, MaintenancePreview, PublicMaintenance } from "../../server/maintenance/public";
import { api } from "./client";

// The wire types and limits are the server's (server/maintenance/public.ts).
export type * from "../../server/maintenance/public";
export {
  MAINTENANCE_DESCRIPTION_MAX,
  MAINTENANCE_DURATION_MAX,
  MAINTENANCE_KINDS,
  MAINTENANCE_NOW_MAX_MINUTES,
  MAINTENANCE_TARGETS_MAX,
  MAINTENANCE_TITLE_MAX,
} from "../../server/maintenance/public";

export const listMaintenance = (filter?: { monitorId?: number; agentId?: number }) => {
  const query = filter?.monitorId ? `?monitorId=${filter.monitorId}` : filter?.agentId ? `?agentId=${filter.agentId}` : "";
  return api.get<{ windows: PublicMaintenance[] }>(`/api/maintenance${query}`);
};
export const getMaintenance = (id: number) => api.get<{ window: PublicMaintenance }>(`/api/maintenance/${id}`);
export const createMaintenance = (input: MaintenanceInput) => api.post<{ window: PublicMaintenance }>("/api/maintenance", input);
export const updateMaintenance = (id: number, input: MaintenanceInput) => api.put<{ window: PublicMaintenance }>(`/api/maintenance/${id}`, input);
export const deleteMaintenance = (id: number) => api.delete<object>(`/api/maintenance/${id}`);
export const endMaintenance = (id: number) => api.post<{ window: PublicMaintenance }>(`/api/maintenance/${id}/end`);
/** "Start maintenance now" on a monitor or agent: for `minutes`, or until ended. */
export const startMaintenance = (input: MaintenanceNowInput) => api.post<{ window: PublicMaintenance }>("/api/maintenance/start", input);
export const previewMaintenance = (schedule: MaintenanceInput["schedule"]) => api.post<{ preview: MaintenancePreview }>("/api/maintenance/preview", { schedule });
