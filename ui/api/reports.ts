import type { Report, ReportTargetKind } from "../../server/reports/public";
import { api, fetchFile } from "./client";

export type * from "../../server/reports/public";

const query = (period: string, zone: string) => `period=${encodeURIComponent(period)}&zone=${encodeURIComponent(zone)}`;
const path = (kind: ReportTargetKind, ref: string) => `/api/reports/${kind}/${encodeURIComponent(ref)}`;

export const getReport = (kind: ReportTargetKind, ref: string, period: string, zone: string) =>
  api.get<{ report: Report }>(`${path(kind, ref)}?${query(period, zone)}`);

export const downloadReportCsv = (kind: ReportTargetKind, ref: string, period: string, zone: string, part: "monitors" | "outages") =>
  fetchFile(`${path(kind, ref)}?${query(period, zone)}&format=csv&part=${part}`, `report-${part}.csv`);
