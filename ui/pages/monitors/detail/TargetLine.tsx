import { useTranslation } from "react-i18next";
import type { PublicMonitor } from "../../../api/monitors";

/** What the page says a monitor checks, under its name: the URL, host:port, the DNS question, or the push wait. */
export function TargetLine({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  if (monitor.type === "http") {
    return (
      <p className="mt-1 truncate font-mono text-sm text-slate-500" data-testid="monitor-url" title={monitor.url}>
        <span className="mr-2 text-slate-400">{monitor.method}</span>
        <a href={monitor.url} target="_blank" rel="noreferrer noopener" className="hover:text-indigo-600 hover:underline">
          {monitor.url}
        </a>
      </p>
    );
  }
  if (monitor.type === "push") {
    return (
      <p className="mt-1 text-sm text-slate-500" data-testid="monitor-target">
        {t("monitors.detail.pushWaiting")}
      </p>
    );
  }
  return (
    <p className="mt-1 truncate font-mono text-sm text-slate-500" data-testid="monitor-target" title={monitor.target}>
      {monitor.target}
      {monitor.type === "dns" && monitor.dnsResolver && <span className="ml-2 text-slate-400">@{monitor.dnsResolver}</span>}
    </p>
  );
}
