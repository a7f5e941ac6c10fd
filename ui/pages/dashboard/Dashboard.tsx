import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../api/errors";
import { getDashboard, type Dashboard as Counts } from "../../api/dashboard";
import { Button, ButtonLink } from "../../components/Button";
import { PageHeader } from "../../components/Card";
import { ActivityIcon, PlusIcon, ServerIcon } from "../../components/icons";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { useLive } from "../../state/live";

type State = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; counts: Counts };

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

/** A titled group of counts with a link to its list, and a call to action when there is nothing yet. */
function Section(props: {
  testId: string;
  icon: ReactNode;
  title: ReactNode;
  href: string;
  linkLabel: ReactNode;
  empty: { text: ReactNode; action: ReactNode; href: string } | null;
  children: ReactNode;
}) {
  return (
    <section data-testid={props.testId} className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          {props.icon}
          {props.title}
        </h2>
        <Link href={props.href} className="text-sm font-medium text-indigo-600 hover:text-indigo-500" data-testid={`${props.testId}-link`}>
          {props.linkLabel} →
        </Link>
      </div>
      {props.children}
      {props.empty && (
        <div data-testid={`${props.testId}-empty`} className="flex flex-wrap items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-5 py-4">
          <p className="text-sm text-slate-500">{props.empty.text}</p>
          <ButtonLink href={props.empty.href} size="sm">
            <PlusIcon className="size-4" />
            {props.empty.action}
          </ButtonLink>
        </div>
      )}
    </section>
  );
}

/**
 * Dashboard: total and active monitors, and how many are up, down or pending (spec §2); below them the agents, and
 * how many are online, offline or still connecting. One call (`GET /api/dashboard`, served from memory) feeds both,
 * refetched when a pushed change could move a count.
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

  // Pushed changes: refetch the counts, at most once a second.
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
  useLive("agent.status", refreshSoon);
  useLive("agent.change", refreshSoon);
  useLive("hello", refreshSoon);

  return (
    <div className="space-y-8">
      <PageHeader title={t("dashboard.title")} description={t("dashboard.subtitle")} />

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
      {state.phase === "loaded" && <Counts counts={state.counts} />}
    </div>
  );
}

function Counts({ counts }: { counts: Counts }) {
  const { t } = useTranslation();
  const { agents } = counts;
  return (
    <>
      <Section
        testId="dashboard-monitors"
        icon={<ActivityIcon className="size-5 text-indigo-500" />}
        title={t("dashboard.monitorsSection")}
        href="/monitors"
        linkLabel={t("dashboard.viewMonitors")}
        empty={counts.totalMonitors === 0 ? { text: t("dashboard.noMonitors"), action: t("dashboard.createFirst"), href: "/monitors/create" } : null}
      >
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <CountCard
            label={t("dashboard.totalMonitors")}
            value={counts.totalMonitors}
            detail={counts.pausedMonitors > 0 ? t("dashboard.pausedCount", { count: counts.pausedMonitors }) : t("dashboard.allActive")}
            tone="slate"
            href="/monitors"
            testId="dashboard-total"
          />
          <CountCard label={t("dashboard.activeMonitors")} value={counts.activeMonitors} tone="indigo" href="/monitors" testId="dashboard-active" />
          <CountCard label={t("dashboard.up")} value={counts.up} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="emerald" href="/monitors" testId="dashboard-up" />
          <CountCard label={t("dashboard.down")} value={counts.down} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="red" href="/monitors" testId="dashboard-down" />
          <CountCard label={t("dashboard.pending")} value={counts.pending} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="amber" href="/monitors" testId="dashboard-pending" />
        </div>
      </Section>

      <Section
        testId="dashboard-agents"
        icon={<ServerIcon className="size-5 text-indigo-500" />}
        title={t("dashboard.agentsSection")}
        href="/agents"
        linkLabel={t("dashboard.viewAgents")}
        empty={agents.total === 0 ? { text: t("dashboard.noAgents"), action: t("dashboard.addFirstAgent"), href: "/agents/create" } : null}
      >
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <CountCard label={t("dashboard.totalAgents")} value={agents.total} tone="slate" href="/agents" testId="dashboard-agents-total" />
          <CountCard label={t("agents.status.online")} value={agents.online} tone="emerald" href="/agents" testId="dashboard-agents-online" />
          <CountCard label={t("agents.status.offline")} value={agents.offline} tone="red" href="/agents" testId="dashboard-agents-offline" />
          <CountCard label={t("agents.status.connecting")} value={agents.connecting} tone="amber" href="/agents" testId="dashboard-agents-connecting" />
        </div>
      </Section>
    </>
  );
}
