import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { listAgents, type PublicAgent } from "../../../api/agents";
import { errorMessage } from "../../../api/errors";
import { LOCATION_RULES, saveLocations, type LocationRule, type MonitorLocations } from "../../../api/locations";
import { Button } from "../../../components/Button";
import { Field, SelectInput, TextInput, Toggle } from "../../../components/form";
import { LoadError } from "../../../components/LoadState";
import { locationProblem, locationTotal } from "./locationsModel";

/** The rule's sentence for `total` locations (the count rule names its N once there is one). */
export function useRuleExplanation() {
  const { t } = useTranslation();
  return (rule: LocationRule, count: number | null, total: number) =>
    rule === "count"
      ? count === null
        ? t("monitors.locations.explain.countUnset")
        : t("monitors.locations.explain.count", { count, total })
      : t(`monitors.locations.explain.${rule}`);
}

/**
 * Where a monitor is checked from: the server, agents (from /api/agents), and the rule that combines them. Saves with
 * PUT; what the server refuses is said in the reader's language (errors.<CODE>).
 */
export function LocationsForm({ monitorId, current, onSaved, onCancel }: { monitorId: number; current: MonitorLocations; onSaved: (next: MonitorLocations) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const explain = useRuleExplanation();
  const agentsLabel = useId();
  const [agents, setAgents] = useState<PublicAgent[] | null>(null);
  const [agentsError, setAgentsError] = useState("");
  const [fromServer, setFromServer] = useState(current.checkFromServer);
  const [agentIds, setAgentIds] = useState<number[]>(current.agentIds);
  const [rule, setRule] = useState<LocationRule>(current.rule);
  const [count, setCount] = useState(current.count === null ? "" : String(current.count));
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);

  const loadAgents = () => {
    setAgentsError("");
    listAgents()
      .then((reply) => setAgents(reply.agents))
      .catch((err) => setAgentsError(errorMessage(err, t("monitors.locations.form.agentsFailed"))));
  };
  // Once, as the form opens.
  useEffect(loadAgents, []);

  const total = locationTotal(fromServer, agentIds);
  const toggleAgent = (id: number, on: boolean) => setAgentIds((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = locationProblem(fromServer, agentIds, rule, count);
    if (problem) {
      setError(t(`errors.${problem}`));
      return;
    }
    setError("");
    setSaving(true);
    try {
      const reply = await saveLocations(monitorId, { checkFromServer: fromServer, agentIds, rule, count: rule === "count" ? Number(count) : null });
      toast.success(t("monitors.locations.saved"));
      onSaved(reply);
    } catch (err) {
      setError(errorMessage(err, t("monitors.locations.saveFailed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="locations-form" className="space-y-5 border-b border-slate-100 bg-slate-50/60 px-5 py-5 sm:px-6">
      <h3 className="text-sm font-semibold text-slate-900">{t("monitors.locations.form.title")}</h3>
      <Toggle
        name="checkFromServer"
        label={t("monitors.locations.form.fromServer")}
        hint={t("monitors.locations.form.fromServerHint")}
        checked={fromServer}
        onChange={setFromServer}
        data-testid="locations-from-server"
      />
      <fieldset className="space-y-2" aria-labelledby={agentsLabel}>
        <div>
          <p id={agentsLabel} className="text-sm font-medium text-slate-700">
            {t("monitors.locations.form.agents")}
          </p>
          <p className="text-xs text-slate-500">{t("monitors.locations.form.agentsHint")}</p>
        </div>
        {agentsError ? (
          <LoadError inline message={agentsError} onRetry={loadAgents} data-testid="locations-agents-error" />
        ) : agents === null ? (
          <p role="status" className="text-sm text-slate-400">
            {t("common.loading")}
          </p>
        ) : agents.length === 0 ? (
          <p data-testid="locations-no-agents" className="text-sm text-slate-500">
            {t("monitors.locations.form.noAgents")}{" "}
            <Link href="/agents/create" className="font-medium text-indigo-600 hover:text-indigo-500">
              {t("monitors.locations.form.addAgent")}
            </Link>
          </p>
        ) : (
          <ul className="grid gap-1 sm:grid-cols-2">
            {agents.map((agent) => (
              <li key={agent.id}>
                <label className="flex cursor-pointer items-center gap-3 rounded-lg p-1.5 hover:bg-white">
                  <input
                    type="checkbox"
                    name="agentIds"
                    value={agent.id}
                    checked={agentIds.includes(agent.id)}
                    onChange={(e) => toggleAgent(agent.id, e.target.checked)}
                    data-testid={`locations-agent-${agent.id}`}
                    className="size-4 shrink-0 cursor-pointer rounded border-slate-300 accent-indigo-600"
                  />
                  <span className="min-w-0">
                    {/* As its checks are named among the locations (its location name, else its name). */}
                    <span className="block truncate text-sm font-medium text-slate-700">{agent.location || agent.name}</span>
                    <span className="block truncate text-xs text-slate-500">
                      {[agent.location ? agent.name : null, agent.hostname, t(`agents.status.${agent.status}`)].filter(Boolean).join(" · ")}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("monitors.locations.form.rule")}>
          {(id) => (
            <SelectInput id={id} name="rule" value={rule} onChange={(e) => setRule(e.target.value as LocationRule)} data-testid="locations-rule-select">
              {LOCATION_RULES.map((r) => (
                <option key={r} value={r}>
                  {t(`monitors.locations.rules.${r}`)}
                </option>
              ))}
            </SelectInput>
          )}
        </Field>
        {rule === "count" && (
          <Field label={t("monitors.locations.form.count")}>
            {(id) => (
              <TextInput
                id={id}
                name="count"
                type="number"
                inputMode="numeric"
                min={1}
                max={Math.max(1, total)}
                value={count}
                onChange={(e) => setCount(e.target.value)}
                data-testid="locations-count"
              />
            )}
          </Field>
        )}
      </div>
      <div className="space-y-1 text-sm text-slate-600">
        <p data-testid="locations-rule-explanation">{explain(rule, rule === "count" && count.trim() !== "" && Number.isInteger(Number(count)) ? Number(count) : null, total)}</p>
        <p className="text-xs text-slate-500">{t("monitors.locations.leftOut")}</p>
      </div>
      {error && (
        <p role="alert" data-testid="locations-form-error" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-600">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={saving} data-testid="locations-save">
          {saving ? t("common.saving") : t("common.save")}
        </Button>
        <Button variant="secondary" onClick={onCancel} data-testid="locations-cancel">
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
