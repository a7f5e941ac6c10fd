import { useCallback, useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { getClusterNodes, type ClusterNodes, type NodeView } from "../../api/cluster";
import { Card, PageHeader } from "../../components/Card";
import { DotBadge } from "../../components/RoleBadge";
import { LoadError, LoadingMessage } from "../../components/LoadState";
import { Ago, Time } from "../../components/time";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLoad } from "../../components/useLoad";

const TH = "px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const TD = "block text-sm text-slate-700 md:table-cell md:px-4 md:py-3 md:whitespace-nowrap";
/** Below md each row is a card: the column's name beside its value (the header row is hidden there). */
const PHONE_LABEL = "mr-2 text-xs text-slate-400 md:hidden";
/** The list follows heartbeats (every 5 s) without a reload. */
const REFRESH_MS = 5000;

function LiveBadge({ live }: { live: boolean }) {
  const { t } = useTranslation();
  return <DotBadge tone={live ? "green" : "grey"}>{t(live ? "nodes.live" : "nodes.gone")}</DotBadge>;
}

/** A cell with its column's name beside it on a phone. */
function Cell({ label, className = "", children }: { label: "state" | "share" | "heartbeat" | "started" | "version" | "address"; className?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <td className={`${TD} ${className}`}>
      <span className={PHONE_LABEL}>{t(`nodes.columns.${label}`)}</span>
      {children}
    </td>
  );
}

function NodeRow({ node, buckets, role }: { node: NodeView; buckets: number; role: ClusterNodes["role"] }) {
  const { t } = useTranslation();
  const share = buckets > 0 ? Math.round((node.leases / buckets) * 100) : 0;
  return (
    <tr className="block border-b border-slate-100 p-4 last:border-0 md:table-row md:p-0" data-testid={`node-row-${node.name}`}>
      <td className={`${TD} font-medium text-slate-900`}>
        <span data-testid="node-name">{node.name}</span>
        {node.self && (
          <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700" data-testid="node-self">
            {t("nodes.thisNode")}
          </span>
        )}
        {node.self && role !== "member" && (
          <span className="ml-2 text-xs text-slate-500" data-testid="node-role">
            {t(`nodes.roles.${role}`)}
          </span>
        )}
      </td>
      <Cell label="state">
        <LiveBadge live={node.live} />
      </Cell>
      <Cell label="share">
        <span data-testid="node-leases">{t("nodes.share", { leases: node.leases, buckets, percent: share })}</span>
      </Cell>
      <Cell label="heartbeat">
        <Ago at={node.heartbeatAt} never={t("common.dash")} data-testid="node-heartbeat" />
      </Cell>
      <Cell label="started">
        <Time at={node.startedAt} />
      </Cell>
      <Cell label="version">{node.version}</Cell>
      <Cell label="address" className="md:max-w-56 md:truncate">
        {node.address ?? t("common.dash")}
      </Cell>
    </tr>
  );
}

/** The Vigil processes sharing this database: which are live and how many monitors each checks. */
export default function Nodes() {
  const { t } = useTranslation();
  useDocumentTitle(t("nodes.title"));
  const fetch = useCallback(() => getClusterNodes(), []);
  const { state, reload } = useLoad(fetch, t("nodes.fetchFailed"));
  useEffect(() => {
    const timer = setInterval(() => void reload(true), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <div>
      <PageHeader title={t("nodes.title")} description={t("nodes.subtitle")} />
      {state.phase === "loading" && <LoadingMessage data-testid="nodes-loading">{t("nodes.loading")}</LoadingMessage>}
      {state.phase === "error" && <LoadError message={state.message} onRetry={() => void reload()} data-testid="nodes-error" />}
      {state.phase === "loaded" && (
        <>
          <p className="mb-4 text-sm text-slate-600" data-testid="nodes-summary">
            {state.data.clustered
              ? t("nodes.clustered", { count: state.data.nodes.filter((n) => n.live).length })
              : t("nodes.standalone")}
          </p>
          <Card className="overflow-hidden">
            <table className="block w-full md:table" data-testid="nodes-table">
              <thead className="hidden bg-slate-50 md:table-header-group">
                <tr>
                  <th className={TH}>{t("nodes.columns.name")}</th>
                  <th className={TH}>{t("nodes.columns.state")}</th>
                  <th className={TH}>{t("nodes.columns.share")}</th>
                  <th className={TH}>{t("nodes.columns.heartbeat")}</th>
                  <th className={TH}>{t("nodes.columns.started")}</th>
                  <th className={TH}>{t("nodes.columns.version")}</th>
                  <th className={TH}>{t("nodes.columns.address")}</th>
                </tr>
              </thead>
              <tbody className="block md:table-row-group">
                {state.data.nodes.map((node) => (
                  <NodeRow key={node.name} node={node} buckets={state.data.buckets} role={state.data.role} />
                ))}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </div>
  );
}
