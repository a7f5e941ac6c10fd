// What a caller may see of an agent, by role: the one view REST replies and live messages share (DESIGN: one view per
// role). Every role sees an agent's state whole (its facts hold no credential); the address its reports come from
// is for notifications only (agent.status carries it on the bus), and no reply or live message shows it.
import type { Role } from "../users/public";

export function agentView<A extends object>(_role: Role, agent: A): Omit<A, "lastAddress"> {
  if (!("lastAddress" in agent)) return agent;
  const { lastAddress: _, ...seen } = agent;
  return seen;
}
