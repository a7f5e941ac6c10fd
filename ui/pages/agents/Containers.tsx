// The agent page's containers: what Docker (or Podman) runs on the host as the agent last saw it — state, health,
// restarts, CPU and memory — or why the agent cannot see them (no engine, no permission, turned off).
//
// data-testids: `agent-containers`, `agent-containers-table`, `agent-container-{name}`, `agent-containers-access`,
// `agent-containers-engine`.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { getAgentContainers, type ContainerInfo, type ContainersSnapshot } from "../../api/agents";
import { Card } from "../../components/Card";
import { formatBytes, formatPercent } from "../../components/format";
import { usePolling } from "../../components/hooks";
import { Ago } from "../../components/time";
import { TD, TH } from "./parts";

const POLL_MS = 15_000;

// Exited is grey, not red: one-off jobs exit by design; a dead container is red.
const STATE_TONE: Record<string, string> = {
  running: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  restarting: "bg-amber-50 text-amber-800 ring-amber-200",
  dead: "bg-red-50 text-red-700 ring-red-200",
};
const HEALTH_TONE: Record<string, string> = { healthy: "text-emerald-700", unhealthy: "font-medium text-red-600", starting: "text-amber-700" };
const KNOWN_STATES = ["created", "running", "paused", "restarting", "removing", "exited", "dead"];

function ContainerRow({ c }: { c: ContainerInfo }) {
  const { t } = useTranslation();
  const state = KNOWN_STATES.includes(c.state) ? t(`agents.containers.states.${c.state as "running"}`) : c.state;
  return (
    <tr data-testid={`agent-container-${c.name}`} data-state={c.state} data-health={c.health ?? "none"}>
      <td className={`${TD} font-medium text-slate-900`}>{c.name}</td>
      <td className={`${TD} max-w-72 truncate text-slate-500`} title={c.image}>{c.image}</td>
      <td className={TD}>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs ring-1 ring-inset ${STATE_TONE[c.state] ?? "bg-slate-100 text-slate-600 ring-slate-200"}`}>{state}</span>
      </td>
      <td className={`${TD} ${c.health ? HEALTH_TONE[c.health] : "text-slate-400"}`}>{c.health ? t(`agents.containers.health.${c.health}`) : t("common.dash")}</td>
      <td className={`${TD} text-right`}>{c.restarts}</td>
      <td className={`${TD} text-right`}>{formatPercent(c.cpu)}</td>
      <td className={`${TD} text-right`}>
        {formatBytes(c.memory)}
        {c.memoryLimit ? <span className="text-slate-400"> / {formatBytes(c.memoryLimit)}</span> : null}
      </td>
      <td className={`${TD} text-slate-500`}>{c.state === "running" ? <Ago at={c.startedAt} never={t("common.dash")} /> : t("common.dash")}</td>
    </tr>
  );
}

/** Why there is no list, in words an operator can act on. */
function Access({ snapshot }: { snapshot: ContainersSnapshot }) {
  const { t } = useTranslation();
  const text =
    snapshot.access === "denied"
      ? t("agents.containers.denied", { socket: snapshot.socket })
      : snapshot.access === "off"
        ? t("agents.containers.off")
        : t("agents.containers.unavailable");
  return (
    <div className="space-y-1 px-4 py-5 text-sm" data-testid="agent-containers-access" data-access={snapshot.access}>
      <p className={snapshot.access === "denied" ? "text-amber-800" : "text-slate-600"}>{text}</p>
      {snapshot.access === "denied" && <code className="block w-fit rounded bg-slate-100 px-2 py-1 text-xs text-slate-800">sudo usermod -aG docker vigil-agent && sudo systemctl restart vigil-agent</code>}
      {snapshot.message && snapshot.access !== "off" && <p className="text-xs text-slate-400">{snapshot.message}</p>}
    </div>
  );
}

export function ContainersSection({ agentId }: { agentId: number }) {
  const { t } = useTranslation();
  const [snapshot, setSnapshot] = useState<ContainersSnapshot | null | undefined>(undefined);
  const load = useCallback(async () => {
    try {
      setSnapshot((await getAgentContainers(agentId)).containers);
    } catch {
      // A failed refresh keeps what is shown.
    }
  }, [agentId]);
  useEffect(() => {
    setSnapshot(undefined);
    void load();
  }, [load]);
  usePolling(load, POLL_MS, snapshot !== undefined);
  // An agent that never said anything about containers (older than this feature) gets no section.
  if (!snapshot) return null;

  const running = snapshot.list.filter((c) => c.state === "running").length;
  return (
    <section className="space-y-3" data-testid="agent-containers">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{t("agents.containers.title")}</h2>
        {snapshot.access === "ok" && (
          <p className="text-sm text-slate-500" data-testid="agent-containers-engine">
            {[snapshot.engine, t("agents.containers.count", { count: snapshot.total, running })].filter(Boolean).join(" · ")}
          </p>
        )}
      </div>
      <Card className="overflow-hidden">
        {snapshot.access !== "ok" ? (
          <Access snapshot={snapshot} />
        ) : snapshot.list.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-500">{t("agents.containers.none")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-100" data-testid="agent-containers-table">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={TH}>{t("agents.containers.name")}</th>
                  <th scope="col" className={TH}>{t("agents.containers.image")}</th>
                  <th scope="col" className={TH}>{t("agents.containers.state")}</th>
                  <th scope="col" className={TH}>{t("agents.containers.healthTitle")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.containers.restarts")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.containers.cpu")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("agents.containers.memory")}</th>
                  <th scope="col" className={TH}>{t("agents.containers.started")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {snapshot.list.map((c) => (
                  <ContainerRow key={c.id} c={c} />
                ))}
              </tbody>
            </table>
            {snapshot.total > snapshot.list.length && (
              <p className="border-t border-slate-100 px-4 py-2 text-xs text-slate-500">{t("agents.containers.truncated", { shown: snapshot.list.length, total: snapshot.total })}</p>
            )}
          </div>
        )}
      </Card>
    </section>
  );
}
