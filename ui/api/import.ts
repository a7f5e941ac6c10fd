import type { ImportPlan } from "../../server/import/kuma/section";
import { request } from "./client";

export type { ImportPlan, Note, PlanItem } from "../../server/import/kuma/section";

function form(file: File, history: boolean): FormData {
  const data = new FormData();
  data.set("file", file);
  data.set("history", String(history));
  return data;
}

/** POST /api/import/kuma/plan (admins): what importing this Kuma database or JSON backup would do; changes nothing. */
export const planKumaImport = (file: File, history: boolean) => request<{ data: ImportPlan }>("POST", "/api/import/kuma/plan", form(file, history));

/** POST /api/import/kuma/apply (admins): imports it in one transaction; again = updates what it imported before. */
export const applyKumaImport = (file: File, history: boolean) => request<{ data: ImportPlan }>("POST", "/api/import/kuma/apply", form(file, history));
