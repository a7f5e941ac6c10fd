import { useMemo } from "react";
import { SelectInput } from "../../components/form";
import { zoneList } from "./zones";

/** Every zone the browser knows, UTC first; a saved zone it does not know stays listed (first) rather than vanish. */
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
