// The people and on-call schedules a policy's steps may page (server/oncall/), as the form's pickers show them.
import { api } from "../../api/client";
import type { PersonOption, ScheduleOption } from "./parts";

// TODO(oncall): the on-call feature's API module replaces these calls when it lands.
export async function listPagingTargets(): Promise<{ people: PersonOption[]; schedules: ScheduleOption[] }> {
  const [people, schedules] = await Promise.all([
    api.get<{ people: PersonOption[] }>("/api/oncall/people"),
    api.get<{ schedules: { id: number; name: string; now: { username: string } | null }[] }>("/api/oncall/schedules"),
  ]);
  return {
    people: people.people ?? [],
    schedules: (schedules.schedules ?? []).map((s) => ({ id: s.id, name: s.name, onCallNow: s.now?.username ?? null })),
  };
}
