import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { listAgents, type PublicAgent } from "../../api/agents";
import { errorMessage } from "../../api/errors";
import { usePolling } from "../../components/hooks";
import { useLive } from "../../state/live";
import { applyAgentPush, sortAgents, type AgentPush } from "./model";

export type AgentsState =
  | { phase: "loading" }
  | { phase: "error"; message: string }
  /** `stale`: the last refresh failed (the list shown is the one before). */
  | { phase: "loaded"; agents: PublicAgent[]; stale?: string };

/** How often the list refreshes while the page is visible. */
export const AGENTS_POLL_MS = 10_000;

/**
 * The agent list, kept current: loaded once, refreshed every `pollMs` while the page is visible, and open to pushed
 * updates through `apply` (for /api/live messages). Agents deleted here stay gone even if a refresh that started
 * before the deletion answers after it.
 */
export function useAgents(pollMs = AGENTS_POLL_MS) {
  const { t } = useTranslation();
  const [state, setState] = useState<AgentsState>({ phase: "loading" });
  const deleted = useRef(new Set<number>());

  const refresh = useCallback(
    async (showLoading: boolean) => {
      if (showLoading) setState({ phase: "loading" });
      try {
        const reply = await listAgents();
        const agents = sortAgents((reply.agents ?? []).filter((a) => !deleted.current.has(a.id)));
        setState({ phase: "loaded", agents });
      } catch (err) {
        const message = errorMessage(err, t("agents.fetchFailed"));
        setState((s) => (s.phase === "loaded" ? { ...s, stale: message } : { phase: "error", message }));
      }
    },
    [t],
  );

  useEffect(() => {
    void refresh(true);
  }, [refresh]);
  usePolling(() => refresh(false), pollMs);

  const apply = useCallback((push: AgentPush) => {
    if (push.type === "agent.removed") deleted.current.add(push.payload.agentId);
    setState((s) => (s.phase === "loaded" ? { ...s, agents: applyAgentPush(s.agents, push) } : s));
  }, []);

  // Pushes keep the list current between polls; a new or renamed agent is fetched at once.
  useLive("agent.status", (e) => apply({ type: "agent.status", payload: e }));
  useLive("agent.report", (agent) => apply({ type: "agent.report", payload: agent }));
  useLive("agent.change", (e) => (e.kind === "deleted" ? apply({ type: "agent.removed", payload: { agentId: e.agentId } }) : void refresh(false)));
  useLive("maintenance.change", (e) => void ((e.agents.entered.length || e.agents.left.length) && refresh(false)));

  const remove = useCallback((agentId: number) => apply({ type: "agent.removed", payload: { agentId } }), [apply]);
  const reload = useCallback(() => refresh(true), [refresh]);

  return { state, apply, remove, reload };
}
