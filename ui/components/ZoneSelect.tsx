import { useMemo } from "react";
import { zoneList } from "../pages/maintenance/zones";
import { SelectInput } from "./form";

/** A time zone picker: every zone the browser knows, UTC first (and the current value, should the browser not know it). */
export function ZoneSelect({ id, value, onChange, testId }: { id: string; value: string; onChange: (zone: string) => void; testId: string }) {
  const zones = useMemo(() => {
    const all = zoneList();
    return all.includes(value) ? all : [value, ...all];
  }, [value]);
  return (
    <SelectInput id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
      {zones.map((z) => (
        <option key={z} value={z}>
          {z}
        </option>
      ))}
    </SelectInput>
  );
}
