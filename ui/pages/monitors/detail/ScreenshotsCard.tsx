import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../api/errors";
import { getScreenshot, getScreenshots, type PublicMonitor } from "../../../api/monitors";
import { Card } from "../../../components/Card";
import { Time } from "../../../components/time";
import { translateCheckError } from "../checkError";
import { SectionTitle } from "./layout";

type Shot = { time: number; error: string | null };

/**
 * A browser monitor's failure screenshots: the chosen one (the latest at first) large with its time and error, the
 * others as a list to pick from. The list reloads after each check; images come with the session's token (fetched as
 * a blob and shown from an object URL, revoked when another is shown).
 */
export function ScreenshotsCard({ monitor }: { monitor: PublicMonitor }) {
  const { t } = useTranslation();
  const [shots, setShots] = useState<Shot[] | null>(null);
  const [listError, setListError] = useState("");
  /** The one picked from the list; null: the latest (a newer failure then replaces it). */
  const [picked, setPicked] = useState<number | null>(null);

  useEffect(() => {
    let live = true;
    getScreenshots(monitor.id)
      .then((reply) => {
        if (!live) return;
        setShots(reply.screenshots);
        setListError("");
      })
      .catch((err) => live && setListError(errorMessage(err, t("monitors.detail.screenshots.failed"))));
    return () => {
      live = false;
    };
  }, [monitor.id, monitor.lastCheckedAt, t]);

  const shown = shots?.find((s) => s.time === picked) ?? shots?.[0] ?? null;
  return (
    <Card data-testid="monitor-screenshots">
      <SectionTitle>{t("monitors.detail.screenshots.title")}</SectionTitle>
      <div className="space-y-4 px-5 py-5 sm:px-6">
        {listError && (
          <p role="alert" data-testid="monitor-screenshots-error" className="text-sm text-red-600">
            {listError}
          </p>
        )}
        {shots === null ? (
          !listError && <p className="text-sm text-slate-400">{t("common.loading")}</p>
        ) : shots.length === 0 ? (
          <p data-testid="monitor-screenshots-none" className="text-sm text-slate-500">
            {t("monitors.detail.screenshots.none")}
          </p>
        ) : (
          <>
            {shown && <Shown monitorId={monitor.id} shot={shown} />}
            {shots.length > 1 && (
              <div>
                <h3 className="mb-2 text-sm font-medium text-slate-700">{t("monitors.detail.screenshots.others")}</h3>
                <ul className="max-h-60 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200" data-testid="monitor-screenshots-list">
                  {shots.map((s) => (
                    <li key={s.time}>
                      <button
                        type="button"
                        onClick={() => setPicked(s.time)}
                        aria-current={s === shown}
                        data-testid="monitor-screenshots-item"
                        className={`flex w-full flex-wrap gap-x-3 px-3 py-2 text-left text-sm hover:bg-slate-50 ${s === shown ? "bg-slate-50 font-medium" : ""}`}
                      >
                        <Time at={s.time} className="tabular-nums text-slate-700" />
                        <span className="min-w-0 flex-1 truncate text-red-600">{s.error ? translateCheckError(t, s.error) : ""}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
      </div>
    </Card>
  );
}

/** One screenshot, its time and error. */
function Shown({ monitorId, shot }: { monitorId: number; shot: Shot }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    let made: string | null = null;
    setUrl(null);
    setFailed(false);
    getScreenshot(monitorId, shot.time)
      .then((blob) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [monitorId, shot.time]);

  return (
    <figure className="space-y-2" data-testid="monitor-screenshot">
      <figcaption className="text-sm text-slate-600">
        <Time at={shot.time} className="tabular-nums" data-testid="monitor-screenshot-time" />
        {shot.error && (
          <>
            {" · "}
            <span className="font-medium text-red-600" data-testid="monitor-screenshot-error">
              {translateCheckError(t, shot.error)}
            </span>
          </>
        )}
      </figcaption>
      {failed ? (
        <p role="alert" className="text-sm text-red-600" data-testid="monitor-screenshot-failed">
          {t("monitors.detail.screenshots.imageFailed")}
        </p>
      ) : url ? (
        <a href={url} target="_blank" rel="noreferrer" className="block">
          <img
            src={url}
            alt={t("monitors.detail.screenshots.alt")}
            data-testid="monitor-screenshot-image"
            className="w-full max-w-3xl rounded-lg ring-1 ring-slate-200"
          />
        </a>
      ) : (
        <div className="aspect-video w-full max-w-3xl animate-pulse rounded-lg bg-slate-100" />
      )}
    </figure>
  );
}
