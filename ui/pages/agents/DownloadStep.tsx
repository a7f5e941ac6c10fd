// Step 1 of the install guide (/agents/create): the download command for the chosen build, or why there is none.
import { useTranslation } from "react-i18next";
import type { AgentTarget } from "../../api/agents";
import { Spinner } from "../../components/Button";
import { CodeBlock } from "../../components/CodeBlock";
import { formatBytes } from "../../components/format";
import { DownloadIcon } from "../../components/icons";
import { LoadError } from "../../components/LoadState";
import type { Loaded } from "./AgentCreate";
import type { InstallCommands } from "./commands";

interface DownloadStepProps {
  targets: Loaded<AgentTarget[]>;
  target: AgentTarget | null;
  commands: Pick<InstallCommands, "download" | "downloadWithoutXz" | "downloadUrl">;
  onRetry: () => void;
}

export function DownloadStep({ targets, target, commands, onRetry }: DownloadStepProps) {
  const { t } = useTranslation();
  const { download, downloadWithoutXz, downloadUrl } = commands;
  if (targets.phase === "loading") {
    return (
      <p role="status" data-testid="agent-targets-loading" className="flex items-center gap-2 text-sm text-slate-500">
        <Spinner className="size-4 text-indigo-500" />
        {t("agents.create.targetsLoading")}
      </p>
    );
  }
  if (targets.phase === "error") {
    return (
      <LoadError inline data-testid="agent-targets-error" message={targets.message} onRetry={onRetry} />
    );
  }
  if (!target || !download || !downloadUrl) {
    return (
      <div role="alert" data-testid="agent-no-targets" className="rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
        <p className="font-semibold">{t("agents.create.noTargetsTitle")}</p>
        <p className="mt-1">{t("agents.create.noTargets")}</p>
      </div>
    );
  }
  return (
    <>
      <CodeBlock code={download} data-testid="agent-cmd-download" copyTestId="agent-copy-download" />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-500">
        <span data-testid="agent-download-file" className="break-all font-mono">
          {target.file} · {formatBytes(target.bytes)}
        </span>
        {target.xz ? (
          <span data-testid="agent-download-xz">{t("agents.create.downloadXz", { size: formatBytes(target.xz.bytes) })}</span>
        ) : (
          target.os !== "windows" && <span>{t("agents.create.downloadCompressed")}</span>
        )}
        <a href={downloadUrl} download className="inline-flex items-center gap-1 font-medium text-indigo-600 hover:text-indigo-500" data-testid="agent-download-link">
          <DownloadIcon className="size-3.5" />
          {t("agents.create.downloadBrowser")}
        </a>
      </div>
      {downloadWithoutXz && (
        <>
          <p className="text-xs text-slate-500">{t("agents.create.downloadWithoutXz")}</p>
          <CodeBlock code={downloadWithoutXz} data-testid="agent-cmd-download-gzip" copyTestId="agent-copy-download-gzip" />
        </>
      )}
    </>
  );
}
