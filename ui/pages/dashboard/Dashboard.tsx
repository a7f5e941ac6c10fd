import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../api/errors";
import { getDashboard, type DashboardCounts } from "../../api/monitors";
import { Button, ButtonLink } from "../../components/Button";
import { PageHeader } from "../../components/Card";
import { ActivityIcon, PlusIcon, ServerIcon } from "../../components/icons";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive } from "../../state/live";
import { useAgents } from "../agents/useAgents";

type State = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; counts: DashboardCounts };

/** Counts change with checks; refetch at most this often when pushes arrive. */
const REFRESH_THROTTLE_MS = 1_000;

const TONES = {
  slate: { ring: "hover:ring-slate-300", value: "text-slate-900", dot: "bg-slate-400" },
  indigo: { ring: "hover:ring-indigo-300", value: "text-slate-900", dot: "bg-indigo-500" },
  emerald: { ring: "hover:ring-emerald-300", value: "text-emerald-600", dot: "bg-emerald-500" },
  red: { ring: "hover:ring-red-300", value: "text-red-600", dot: "bg-red-500" },
  amber: { ring: "hover:ring-amber-300", value: "text-amber-600", dot: "bg-amber-500" },
};

function CountCard({ label, value, detail, tone, href, testId }: { label: ReactNode; value: number; detail?: ReactNode; tone: keyof typeof TONES; href: string; testId: string }) {
  const style = TONES[tone];
  return (
    <Link
      href={href}
      className={`group block rounded-xl border border-slate-200 bg-white p-5 shadow-sm ring-1 ring-transparent transition hover:shadow ${style.ring}`}
    >
      <p className="flex items-center gap-2 text-sm font-medium text-slate-500">
        <span aria-hidden="true" className={`size-2 rounded-full ${style.dot}`} />
        {label}
      </p>
      <p data-testid={testId} className={`mt-2 text-3xl font-semibold tabular-nums ${style.value}`}>
        {value.toLocaleString()}
      </p>
      {detail && <p className="mt-1 text-xs text-slate-500">{detail}</p>}
    </Link>
  );
}

/**
 * Dashboard: total and active monitors, and how many are up, down or pending (spec §2); below them the agents, and
 * how many are online, offline or still connecting.
 */
export default function Dashboard() {
  const { t } = useTranslation();
  useDocumentTitle(t("dashboard.title"));
  const [state, setState] = useState<State>({ phase: "loading" });

  const load = useCallback(
    async (showLoading: boolean) => {
      if (showLoading) setState({ phase: "loading" });
      try {
        const counts = await getDashboard();
        setState({ phase: "loaded", counts });
      } catch (err) {
        const message = errorMessage(err, t("dashboard.fetchFailed"));
        setState((s) => (showLoading || s.phase !== "loaded" ? { phase: "error", message } : s));
      }
    },
    [t],
  );

  useEffect(() => {
    void load(true);
  }, [load]);

  // Pushed changes: refetch the counts (cheap, served from memory), at most once a second.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const refreshSoon = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void latestLoad.current(false);
    }, REFRESH_THROTTLE_MS);
  }, []);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  useLive("monitor.status", refreshSoon);
  useLive("monitor.change", refreshSoon);
  useLive("hello", refreshSoon);

  return (
    <div className="space-y-8">
      <PageHeader title={t("dashboard.title")} description={t("dashboard.subtitle")} />

      <section data-testid="dashboard-monitors" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <ActivityIcon className="size-5 text-indigo-500" />
            {t("dashboard.monitorsSection")}
          </h2>
          <Link href="/monitors" className="text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="dashboard-monitors-link">
            {t("dashboard.viewMonitors")} →
          </Link>
        </div>

        {state.phase === "loading" && (
          <p data-testid="dashboard-loading" role="status" className="py-8 text-sm text-slate-500">
            {t("dashboard.loading")}
          </p>
        )}
        {state.phase === "error" && (
          <div className="flex items-center gap-4 py-6">
            <p data-testid="dashboard-error" role="alert" className="text-sm text-red-600">
              {state.message}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void load(true)}>
              {t("common.retry")}
            </Button>
          </div>
        )}
        {state.phase === "loaded" && (
          <>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
              <CountCard
                label={t("dashboard.totalMonitors")}
                value={state.counts.totalMonitors}
                detail={state.counts.pausedMonitors > 0 ? t("dashboard.pausedCount", { count: state.counts.pausedMonitors }) : t("dashboard.allActive")}
                tone="slate"
                href="/monitors"
                testId="dashboard-total"
              />
              <CountCard label={t("dashboard.activeMonitors")} value={state.counts.activeMonitors} tone="indigo" href="/monitors" testId="dashboard-active" />
              <CountCard
                label={t("dashboard.up")}
                value={state.counts.up}
                detail={t("dashboard.ofActive", { count: state.counts.activeMonitors })}
                tone="emerald"
                href="/monitors"
                testId="dashboard-up"
              />
              <CountCard
                label={t("dashboard.down")}
                value={state.counts.down}
                detail={t("dashboard.ofActive", { count: state.counts.activeMonitors })}
                tone="red"
                href="/monitors"
                testId="dashboard-down"
              />
              <CountCard
                label={t("dashboard.pending")}
                value={state.counts.pending}
                detail={t("dashboard.ofActive", { count: state.counts.activeMonitors })}
                tone="amber"
                href="/monitors"
                testId="dashboard-pending"
              />
            </div>
            {state.counts.totalMonitors === 0 && (
              <div data-testid="dashboard-empty" className="flex flex-wrap items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-5 py-4">
                <p className="text-sm text-slate-500">{t("dashboard.noMonitors")}</p>
                <ButtonLink href="/monitors/create" size="sm">
                  <PlusIcon className="size-4" />
                  {t("dashboard.createFirst")}
                </ButtonLink>
              </div>
            )}
          </>
        )}
      </section>

      <AgentsSection />
    </div>
  );
}

/** Agent counts, from the same live list /agents uses (pushed status changes, a refresh every 10 s). */
function AgentsSection() {
  const { t } = useTranslation();
  const { state, reload } = useAgents();
  const count = (status: string) => (state.phase === "loaded" ? state.agents.filter((a) => a.status === status).length : 0);
  return (
    <section data-testid="dashboard-agents" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <ServerIcon className="size-5 text-indigo-500" />
          {t("dashboard.agentsSection")}
        </h2>
        <Link href="/agents" className="text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid="dashboard-agents-link">
          {t("dashboard.viewAgents")} →
        </Link>
      </div>
      {state.phase === "loading" && (
        <p data-testid="dashboard-agents-loading" role="status" className="py-8 text-sm text-slate-500">
          {t("dashboard.loading")}
        </p>
      )}
      {state.phase === "error" && (
        <div className="flex items-center gap-4 py-6">
          <p data-testid="dashboard-agents-error" role="alert" className="text-sm text-red-600">
            {state.message}
          </p>
          <Button variant="secondary" size="sm" onClick={() => void reload()}>
            {t("common.retry")}
          </Button>
        </div>
      )}
      {state.phase === "loaded" && (
        <>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <CountCard label={t("dashboard.totalAgents")} value={state.agents.length} tone="slate" href="/agents" testId="dashboard-agents-total" />
            <CountCard label={t("agents.status.online")} value={count("online")} tone="emerald" href="/agents" testId="dashboard-agents-online" />
            <CountCard label={t("agents.status.offline")} value={count("offline")} tone="red" href="/agents" testId="dashboard-agents-offline" />
            <CountCard label={t("agents.status.connecting")} value={count("connecting")} tone="amber" href="/agents" testId="dashboard-agents-connecting" />
          </div>
          {state.agents.length === 0 && (
            <div data-testid="dashboard-agents-empty" className="flex flex-wrap items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-5 py-4">
              <p className="text-sm text-slate-500">{t("dashboard.noAgents")}</p>
              <ButtonLink href="/agents/create" size="sm">
                <PlusIcon className="size-4" />
                {t("dashboard.addFirstAgent")}
              </ButtonLink>
            </div>
          )}
        </>
      )}
    </section>
  );
}
