import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useSignals } from "@preact/signals-react/runtime";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { errorMessage } from "../../api/errors";
import { getDashboard, type Dashboard as Counts } from "../../api/dashboard";
import { Button, ButtonLink } from "../../components/Button";
import { PageHeader } from "../../components/Card";
import { ActivityIcon, PlusIcon, ServerIcon } from "../../components/icons";
import { useDocumentTitle } from "../../components/useDocumentTitle";
import { formatDuration, secondsSince } from "../../components/format";
import { formatWithZone, useClock, useDurationUnits } from "../../components/time";
import { useLive } from "../../state/live";
import { canEdit } from "../../state/session";
import { translateCheckError } from "../monitors/checkError";
import { findProblem } from "../problems/model";
import { AckState } from "../problems/parts";
import { useProblems } from "../problems/useProblems";

type State = { phase: "loading" } | { phase: "error"; message: string } | { phase: "loaded"; counts: Counts };

/** Counts change with checks; refetch at most this often when pushes arrive. */
const REFRESH_THROTTLE_MS = 1_000;

const TONES = {
  slate: { ring: "hover:ring-slate-300", value: "text-slate-900", dot: "bg-slate-400" },
  indigo: { ring: "hover:ring-indigo-300", value: "text-slate-900", dot: "bg-indigo-500" },
  emerald: { ring: "hover:ring-emerald-300", value: "text-emerald-600", dot: "bg-emerald-500" },
  red: { ring: "hover:ring-red-300", value: "text-red-600", dot: "bg-red-500" },
  amber: { ring: "hover:ring-amber-300", value: "text-amber-600", dot: "bg-amber-500" },
  sky: { ring: "hover:ring-sky-300", value: "text-sky-600", dot: "bg-sky-500" },
};

/**
 * A count that opens its filtered list. Zero is neutral: an empty "Down" tile should not shout in red. Compact on a
 * phone (three or two to a row) so every count fits on one screen instead of nine full-width cards.
 */
function CountCard({ label, value, detail, tone, href, testId }: { label: ReactNode; value: number; detail?: ReactNode; tone: keyof typeof TONES; href: string; testId: string }) {
  const style = TONES[value === 0 ? "slate" : tone];
  return (
    <Link
      href={href}
      data-testid={`${testId}-tile`}
      data-tone={value === 0 ? "neutral" : tone}
      className={`group block min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5 ring-1 ring-transparent transition hover:shadow ${style.ring}`}
    >
      <p className="flex items-center gap-1.5 text-xs font-medium text-slate-500 sm:gap-2 sm:text-sm">
        <span aria-hidden="true" className={`size-2 shrink-0 rounded-full ${style.dot}`} />
        {label}
      </p>
      <p data-testid={testId} className={`mt-1 text-2xl font-semibold tabular-nums sm:mt-2 sm:text-3xl ${style.value}`}>
        {value.toLocaleString()}
      </p>
      {detail && <p className="mt-1 text-[11px] leading-tight text-slate-500 sm:text-xs">{detail}</p>}
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
  /** What to do when there is nothing yet: the action for editors, who may take it (`viewer`: what a viewer is told). */
  empty: { text: ReactNode; action: ReactNode; href: string; viewer: ReactNode } | null;
  children: ReactNode;
}) {
  useSignals();
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
          {canEdit.value ? (
            <ButtonLink href={props.empty.href} size="sm" data-testid={`${props.testId}-empty-action`}>
              <PlusIcon className="size-4" />
              {props.empty.action}
            </ButtonLink>
          ) : (
            <p className="text-sm text-slate-500">{props.empty.viewer}</p>
          )}
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
  useLive("maintenance.change", refreshSoon);
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
      {state.phase === "loaded" && (
        <>
          <Problems problems={state.counts.problems} />
          <Counts counts={state.counts} />
        </>
      )}
    </div>
  );
}

/** A duration up to now, ticking, with the moment itself (and its zone) on hover. */
function For({ since, text }: { since: number; text: (duration: string) => string }) {
  const { i18n } = useTranslation();
  const now = useClock();
  const units = useDurationUnits();
  return (
    <time dateTime={new Date(since).toISOString()} title={formatWithZone(since, i18n.language)}>
      {text(formatDuration(secondsSince(since, now), units))}
    </time>
  );
}

/**
 * What is down or offline right now, above the counts: the first thing an operator opening Vigil needs. Each row whose
 * alert was sent shows who acknowledged it, or the button that does (a row without an alert has nothing to acknowledge).
 */
function Problems({ problems }: { problems: Counts["problems"] }) {
  const { t } = useTranslation();
  const open = useProblems();
  const ackOf = (type: "monitor" | "agent", id: number, condition: string) => {
    const p = open.problems && findProblem(open.problems, type, id, condition);
    return p ? <AckState problem={p} onAcknowledge={(x) => void open.acknowledge(x)} busy={open.busy(p)} /> : null;
  };
  const total = problems.monitors.length + problems.agents.length;
  if (total === 0) {
    return (
      <p data-testid="dashboard-all-clear" role="status" className="flex items-center gap-2 rounded-xl border border-emerald-200 bg-emerald-50 px-5 py-4 text-sm text-emerald-800">
        <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
        {t("dashboard.allClear")}
      </p>
    );
  }
  const row = "flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-3 sm:px-5";
  return (
    <section data-testid="dashboard-problems" aria-labelledby="dashboard-problems-title" className="space-y-3">
      <h2 id="dashboard-problems-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <span aria-hidden="true" className="size-2.5 rounded-full bg-red-500" />
        {t("dashboard.problemsTitle")}
        <span data-testid="dashboard-problems-count" className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-600/20">
          {total}
        </span>
      </h2>
      <ul className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-red-200 bg-white shadow-sm">
        {problems.monitors.map((m) => (
          <li key={`m${m.id}`} data-testid="problem-monitor" data-id={m.id} className={row}>
            <span className="flex min-w-0 items-center gap-2">
              <span className="shrink-0 rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-700">{t("dashboard.downMonitor")}</span>
              <Link href={`/monitors/${m.id}`} data-testid="problem-name" className="truncate font-medium text-slate-900 hover:text-indigo-600">
                {m.name}
              </Link>
            </span>
            <span data-testid="problem-reason" className="min-w-0 flex-1 truncate text-sm text-red-700">
              {m.error ? translateCheckError(t, m.error) : t("dashboard.noReason")}
            </span>
            {m.since !== null && (
              <span data-testid="problem-since" className="shrink-0 text-xs text-slate-500">
                <For since={m.since} text={(time) => t("dashboard.downFor", { time })} />
              </span>
            )}
            {ackOf("monitor", m.id, "down")}
          </li>
        ))}
        {problems.agents.map((a) => (
          <li key={`a${a.id}`} data-testid="problem-agent" data-id={a.id} className={row}>
            <span className="flex min-w-0 items-center gap-2">
              <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">{t("dashboard.offlineAgent")}</span>
              <Link href={`/agents/${a.id}`} data-testid="problem-name" className="truncate font-medium text-slate-900 hover:text-indigo-600">
                {a.name}
              </Link>
            </span>
            <span className="flex-1" />
            <span data-testid="problem-since" className="shrink-0 text-xs text-slate-500">
              {a.lastSeenAt !== null ? <For since={a.lastSeenAt} text={(time) => t("dashboard.lastSeen", { time })} /> : t("dashboard.neverSeen")}
            </span>
            {ackOf("agent", a.id, "offline")}
          </li>
        ))}
      </ul>
    </section>
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
        empty={counts.totalMonitors === 0 ? { text: t("dashboard.noMonitors"), action: t("dashboard.createFirst"), href: "/monitors/create", viewer: t("dashboard.editorCreatesMonitors") } : null}
      >
        <div data-testid="dashboard-monitor-counts" className="grid grid-cols-3 gap-2 sm:gap-4 lg:grid-cols-5">
          <CountCard
            label={t("dashboard.totalMonitors")}
            value={counts.totalMonitors}
            detail={counts.pausedMonitors > 0 ? t("dashboard.pausedCount", { count: counts.pausedMonitors }) : t("dashboard.allActive")}
            tone="slate"
            href="/monitors"
            testId="dashboard-total"
          />
          <CountCard label={t("dashboard.activeMonitors")} value={counts.activeMonitors} tone="indigo" href="/monitors" testId="dashboard-active" />
          <CountCard label={t("dashboard.up")} value={counts.up} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="emerald" href="/monitors?status=up" testId="dashboard-up" />
          <CountCard label={t("dashboard.down")} value={counts.down} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="red" href="/monitors?status=down" testId="dashboard-down" />
          <CountCard label={t("dashboard.pending")} value={counts.pending} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="amber" href="/monitors?status=pending" testId="dashboard-pending" />
          {/* Only while something is in maintenance: it is counted here instead of up, down or pending. */}
          {counts.maintenance > 0 && (
            <CountCard label={t("monitors.status.maintenance")} value={counts.maintenance} detail={t("dashboard.ofActive", { count: counts.activeMonitors })} tone="sky" href="/monitors?status=maintenance" testId="dashboard-maintenance" />
          )}
        </div>
      </Section>

      <Section
        testId="dashboard-agents"
        icon={<ServerIcon className="size-5 text-indigo-500" />}
        title={t("dashboard.agentsSection")}
        href="/agents"
        linkLabel={t("dashboard.viewAgents")}
        empty={agents.total === 0 ? { text: t("dashboard.noAgents"), action: t("dashboard.addFirstAgent"), href: "/agents/create", viewer: t("dashboard.editorInstallsAgents") } : null}
      >
        <div data-testid="dashboard-agent-counts" className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-4">
          <CountCard label={t("dashboard.totalAgents")} value={agents.total} tone="slate" href="/agents" testId="dashboard-agents-total" />
          <CountCard label={t("agents.status.online")} value={agents.online} tone="emerald" href="/agents?status=online" testId="dashboard-agents-online" />
          <CountCard label={t("agents.status.offline")} value={agents.offline} tone="red" href="/agents?status=offline" testId="dashboard-agents-offline" />
          <CountCard label={t("agents.status.connecting")} value={agents.connecting} tone="amber" href="/agents?status=connecting" testId="dashboard-agents-connecting" />
          {agents.maintenance > 0 && <CountCard label={t("agents.status.maintenance")} value={agents.maintenance} tone="sky" href="/maintenance" testId="dashboard-agents-maintenance" />}
        </div>
      </Section>
    </>
  );
}
