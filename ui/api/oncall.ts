import type { OnCallOverrideInput, OnCallPerson, OnCallSchedule, OnCallScheduleInput, OnCallShift } from "../../server/oncall/public";
import { api } from "./client";

// On-call schedules (server/oncall/): the wire types and limits are the server's.
export type * from "../../server/oncall/public";
export { HH_MM, ROTATIONS, SCHEDULE_LIMITS } from "../../server/oncall/public";

export const listSchedules = () => api.get<{ schedules: OnCallSchedule[] }>("/api/oncall/schedules");
export const getSchedule = (id: number) => api.get<{ schedule: OnCallSchedule }>(`/api/oncall/schedules/${id}`);
export const createSchedule = (input: OnCallScheduleInput) => api.post<{ schedule: OnCallSchedule }>("/api/oncall/schedules", input);
export const updateSchedule = (id: number, input: OnCallScheduleInput) => api.put<{ schedule: OnCallSchedule }>(`/api/oncall/schedules/${id}`, input);
export const deleteSchedule = (id: number) => api.delete<object>(`/api/oncall/schedules/${id}`);

/** Who is on call over [from, to) (at most 62 days), overrides applied. */
export const listShifts = (id: number, from: number, to: number) => api.get<{ shifts: OnCallShift[] }>(`/api/oncall/schedules/${id}/shifts?from=${from}&to=${to}`);

export const addOverride = (id: number, input: OnCallOverrideInput) => api.post<{ overrideId: number; schedule: OnCallSchedule }>(`/api/oncall/schedules/${id}/overrides`, input);
export const deleteOverride = (id: number, overrideId: number) => api.delete<{ schedule: OnCallSchedule }>(`/api/oncall/schedules/${id}/overrides/${overrideId}`);

/** The active accounts that can be put on call (editors only). */
export const listPeople = () => api.get<{ people: OnCallPerson[] }>("/api/oncall/people");
