// A time between checks as a Kuma user types it: a whole number and its unit (seconds or minutes).
//
// data-testids: the number is the input named `name` (as the form's other fields), the unit the select `${name}Unit`.
import { useTranslation } from "react-i18next";
import { SelectInput, TextInput } from "../../components/form";
import { INVALID } from "./formParts";
import { INTERVAL_UNITS, type IntervalUnit } from "./intervals";

export function IntervalInput({ id, name, value, unit, invalid, placeholder, onChange }: {
  id: string;
  name: "interval" | "retryInterval";
  value: string;
  unit: IntervalUnit;
  invalid: boolean;
  placeholder?: string;
  onChange: (value: string, unit: IntervalUnit) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex gap-2">
      <TextInput
        id={id}
        name={name}
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value, unit)}
        aria-invalid={invalid || undefined}
        className={`min-w-0 flex-1 ${invalid ? INVALID : ""}`}
      />
      <SelectInput
        name={`${name}Unit`}
        aria-label={t("monitors.form.intervalUnit")}
        value={unit}
        onChange={(e) => onChange(value, e.target.value as IntervalUnit)}
        className="w-auto! shrink-0"
      >
        {INTERVAL_UNITS.map((u) => (
          <option key={u} value={u}>
            {t(`monitors.form.units.${u}`)}
          </option>
        ))}
      </SelectInput>
    </div>
  );
}
