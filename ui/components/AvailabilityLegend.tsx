import { useTranslation } from "react-i18next";
import { AVAILABILITY_LEVELS, LEVEL_COLOR, MOSTLY_DOWN_BELOW } from "./availability";

/** What each colour of the availability bars means, in one small line under them. */
export function AvailabilityLegend({ className = "", "data-testid": testId = "availability-legend" }: { className?: string; "data-testid"?: string }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={t("availability.legend")} data-testid={testId} className={`flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500 ${className}`}>
      {AVAILABILITY_LEVELS.map((level) => (
        <li key={level} data-level={level} data-testid="availability-legend-item" className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`size-2.5 rounded-[2px] ${LEVEL_COLOR[level]}`} />
          {t(`availability.${level}`, { percent: MOSTLY_DOWN_BELOW })}
        </li>
      ))}
    </ul>
  );
}
