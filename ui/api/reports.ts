import type { Report, ReportSchedule, ReportScheduleInput, ReportTargetKind } from "../../server/reports/public";
import { api, fetchFile } from "./client";

export type * from "../../server/reports/public";
export { REPORT_MAIL_MAX_ATTEMPTS } from "../../server/reports/public";

const query = (period: string, zone: string) => `period=${encodeURIComponent(period)}&zone=${encodeURIComponent(zone)}`;
const path = (kind: ReportTargetKind, ref: string) => `/api/reports/${kind}/${encodeURIComponent(ref)}`;

export const getReport = (kind: ReportTargetKind, ref: string, period: string, zone: string) =>
  api.get<{ report: Report }>(`${path(kind, ref)}?${query(period, zone)}`);

export const downloadReportCsv = (kind: ReportTargetKind, ref: string, period: string, zone: string, part: "monitors" | "outages") =>
  fetchFile(`${path(kind, ref)}?${query(period, zone)}&format=csv&part=${part}`, `report-${part}.csv`);

// --- monthly report mails --------------------------------------------------------------------------------------------

export const listReportSchedules = () => api.get<{ schedules: ReportSchedule[] }>("/api/report-schedules");

export const createReportSchedule = (input: ReportScheduleInput) => api.post<{ schedule: ReportSchedule }>("/api/report-schedules", input);

export const updateReportSchedule = (id: number, input: Partial<ReportScheduleInput>) => api.put<{ schedule: ReportSchedule }>(`/api/report-schedules/${id}`, input);

export const deleteReportSchedule = (id: number) => api.delete<object>(`/api/report-schedules/${id}`);

/** Mails last month's report now; resolves with the month it mailed, else throws (502 PROVIDER_ERROR: the server's verdict). */
export const sendReportSchedule = (id: number) => api.post<{ period: string }>(`/api/report-schedules/${id}/send`);
