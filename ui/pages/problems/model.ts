// Open problems on screen: which text names a condition, and the list kept up to date by pushed changes.
import type { Problem, ProblemChange, ProblemTargetType } from "../../api/problems";

/** The translation key of a condition and its values: "disk:/data" → problems.condition.disk { mount: "/data" }. */
export function conditionText(condition: string): { key: string; values: Record<string, string> } {
  if (condition.startsWith("disk:")) return { key: "problems.condition.disk", values: { mount: condition.slice(5) } };
  if (condition.startsWith("container:")) {
    const rest = condition.slice("container:".length);
    const cut = rest.lastIndexOf(":");
    const problem = rest.slice(cut + 1);
    if (cut > 0 && (problem === "stopped" || problem === "unhealthy" || problem === "restarts")) {
      return { key: `problems.condition.container.${problem}`, values: { name: rest.slice(0, cut) } };
    }
  }
  const known: Record<string, string> = { down: "down", offline: "offline", cpu: "cpu", memory: "memory", "budget-burn": "budgetBurn", "budget-spent": "budgetSpent" };
  return known[condition] ? { key: `problems.condition.${known[condition]}`, values: {} } : { key: "problems.condition.other", values: { condition } };
}

const same = (a: Pick<Problem, "targetType" | "targetId" | "condition">, b: Pick<Problem, "targetType" | "targetId" | "condition">) =>
  a.targetType === b.targetType && a.targetId === b.targetId && a.condition === b.condition;

/** The list after a pushed change: raised or acknowledged replace (or add) the problem; resolved removes that occurrence. */
export function applyChange(list: Problem[], change: ProblemChange): Problem[] {
  const p = change.problem;
  if (change.action === "resolved") return list.filter((x) => !(same(x, p) && x.since === p.since));
  const i = list.findIndex((x) => same(x, p));
  if (i < 0) return [...list, p].sort((a, b) => a.since - b.since);
  // An older state arriving late (a reply that crossed a push) never undoes an acknowledgement of the same occurrence.
  if (list[i]!.since === p.since && list[i]!.ack && !p.ack) return list;
  return list.map((x, j) => (j === i ? p : x));
}

/** The open problems of one target. */
export const problemsOf = (list: Problem[], type: ProblemTargetType, id: number) => list.filter((p) => p.targetType === type && p.targetId === id);

/** One open problem, if it is open. */
export const findProblem = (list: Problem[], type: ProblemTargetType, id: number, condition: string) =>
  list.find((p) => same(p, { targetType: type, targetId: id, condition }));

/**
 * The list read again (after a reconnect) over the one shown: what the read has, except that an acknowledgement pushed
 * while the read was on its way is kept (the read may predate it).
 */
export const mergeRead = (shown: Problem[], read: Problem[]): Problem[] =>
  read.map((p) => {
    const before = shown.find((x) => same(x, p) && x.since === p.since);
    return before?.ack && !p.ack ? before : p;
  });
