import type { EscalationPolicy, EscalationPolicyInput, TargetEscalation } from "../../server/escalation/public";
import { api } from "./client";

// Escalation policies (server/escalation/): the wire types are the server's.
export type * from "../../server/escalation/public";
export { POLICY_LIMITS } from "../../server/escalation/public";

export const listPolicies = () => api.get<{ policies: EscalationPolicy[] }>("/api/escalation-policies");

export const createPolicy = (input: EscalationPolicyInput) => api.post<{ policy: EscalationPolicy }>("/api/escalation-policies", input);

/** Replaces the policy whole: its steps and the monitors, groups and tags that follow it. */
export const updatePolicy = (id: number, input: EscalationPolicyInput) => api.put<{ policy: EscalationPolicy }>(`/api/escalation-policies/${id}`, input);

export const deletePolicy = (id: number) => api.delete<object>(`/api/escalation-policies/${id}`);

/** The policy a monitor or an agent follows (and why), and when its open problems escalate next. */
export const getEscalation = (type: "monitor" | "agent", id: number) => api.get<{ escalation: TargetEscalation }>(`/api/${type}s/${id}/escalation`);
