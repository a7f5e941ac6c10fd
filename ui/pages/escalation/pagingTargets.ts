// The people and on-call schedules a policy's steps may page (server/oncall/), as the form's pickers show them. Only
// editors open the form, and only they may list the accounts.
import { listPeople, listSchedules } from "../../api/oncall";
import type { PersonOption, ScheduleOption } from "./parts";

export async function listPagingTargets(): Promise<{ people: PersonOption[]; schedules: ScheduleOption[] }> {
  const [people, schedules] = await Promise.all([listPeople(), listSchedules()]);
  return {
    people: people.people ?? [],
    schedules: (schedules.schedules ?? []).map((s) => ({ id: s.id, name: s.name, onCallNow: s.now?.username ?? null })),
  };
}
