// The people of a rotation, in order: participant 1 takes the first shift, then each in turn. Move up and down, remove,
// and add from the active accounts not in it yet.
//
// data-testids: `oncall-participants` (an <ol>), `oncall-participant-{i}` (i from 0, data-user), `oncall-participant-{i}-up|down|remove`,
//   `oncall-add-person` (a select), `oncall-add-person-button`, `oncall-error-participants`.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SCHEDULE_LIMITS, type OnCallPerson } from "../../api/oncall";
import { Button } from "../../components/Button";
import { Card, CardHeader } from "../../components/Card";
import { SelectInput } from "../../components/form";
import { PlusIcon } from "../../components/icons";
import { moveStep } from "../escalation/model";
import { Dot } from "./parts";

interface ParticipantsEditorProps {
  value: number[];
  /** Names by id: the active accounts, and the participants already saved (a disabled one among them too). */
  names: ReadonlyMap<number, string>;
  /** Whom one can add: the active accounts. */
  people: OnCallPerson[];
  onChange: (participants: number[]) => void;
  error?: string;
}

export function ParticipantsEditor({ value, names, people, onChange, error }: ParticipantsEditorProps) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState("");
  const addable = people.filter((p) => !value.includes(p.id));
  const full = value.length >= SCHEDULE_LIMITS.participants;
  const name = (id: number) => names.get(id) ?? t("picker.deletedItem", { id });

  return (
    <Card>
      <CardHeader title={t("oncall.form.participants")} description={t("oncall.form.participantsHint", { max: SCHEDULE_LIMITS.participants })} />
      <div className="space-y-4 px-4 py-5 sm:px-6">
        {value.length === 0 ? (
          <p className="text-sm text-slate-500">{t("oncall.form.noParticipants")}</p>
        ) : (
          <ol data-testid="oncall-participants" className="space-y-2">
            {value.map((id, i) => {
              const n = i + 1;
              return (
                <li key={id} data-testid={`oncall-participant-${i}`} data-user={id} className="flex items-center gap-2 rounded-lg px-3 py-2 ring-1 ring-inset ring-slate-200">
                  <span className="w-6 shrink-0 text-sm tabular-nums text-slate-500">{n}.</span>
                  <Dot userId={id} />
                  <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900">{name(id)}</span>
                  <div className="flex shrink-0 gap-1">
                    <Button variant="ghost" size="sm" disabled={i === 0} onClick={() => onChange(moveStep(value, i, -1))} aria-label={t("oncall.form.moveUp", { name: name(id) })} title={t("oncall.form.moveUp", { name: name(id) })} data-testid={`oncall-participant-${i}-up`}>
                      ↑
                    </Button>
                    <Button variant="ghost" size="sm" disabled={i === value.length - 1} onClick={() => onChange(moveStep(value, i, 1))} aria-label={t("oncall.form.moveDown", { name: name(id) })} title={t("oncall.form.moveDown", { name: name(id) })} data-testid={`oncall-participant-${i}-down`}>
                      ↓
                    </Button>
                    <Button variant="dangerGhost" size="sm" onClick={() => onChange(value.filter((x) => x !== id))} aria-label={t("oncall.form.remove", { name: name(id) })} title={t("oncall.form.remove", { name: name(id) })} data-testid={`oncall-participant-${i}-remove`}>
                      ✕
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {error && (
          <p className="text-xs font-medium text-red-600" data-testid="oncall-error-participants">
            {error}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <SelectInput aria-label={t("oncall.form.addPerson")} value={adding} onChange={(e) => setAdding(e.target.value)} disabled={full || addable.length === 0} className="min-w-0 flex-1 basis-40" data-testid="oncall-add-person">
            <option value="">{addable.length === 0 ? t("oncall.form.everyoneIn") : t("oncall.form.choosePerson")}</option>
            {addable.map((p) => (
              <option key={p.id} value={p.id}>
                {p.username}
              </option>
            ))}
          </SelectInput>
          <Button
            variant="secondary"
            size="sm"
            disabled={full || adding === ""}
            onClick={() => {
              onChange([...value, Number(adding)]);
              setAdding("");
            }}
            data-testid="oncall-add-person-button"
          >
            <PlusIcon className="size-4" />
            {t("oncall.form.addPerson")}
          </Button>
        </div>
      </div>
    </Card>
  );
}
