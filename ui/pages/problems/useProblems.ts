// The open problems for a page, kept current: read once, then every pushed change applied (and read again after the
// live socket reconnects, when changes may have been missed). `acknowledge` says "I am on it" for one of them.
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { acknowledgeProblem, listProblems, type Problem } from "../../api/problems";
import { useLive } from "../../state/live";
import { applyChange, mergeRead } from "./model";

const keyOf = (p: Pick<Problem, "targetType" | "targetId" | "condition">) => `${p.targetType}:${p.targetId}:${p.condition}`;

export function useProblems() {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(() => {
    listProblems()
      .then((reply) => setProblems((shown) => (shown ? mergeRead(shown, reply.problems) : reply.problems)))
      .catch(() => {}); // an extra on the pages that show it: they stay as they are without it
  }, []);
  useEffect(load, [load]);
  useLive("problem.change", (change) => setProblems((list) => (list ? applyChange(list, change) : list)));
  useLive("hello", load);

  const acknowledge = useCallback(
    async (p: Problem) => {
      setBusy(keyOf(p));
      try {
        const { problem } = await acknowledgeProblem({ targetType: p.targetType, targetId: p.targetId, condition: p.condition });
        setProblems((list) => applyChange(list ?? [], { action: "acknowledged", problem }));
        toast.success(t("problems.acknowledged", { name: problem.targetName }));
      } catch (err) {
        // Someone was quicker: their acknowledgement is shown.
        const theirs = err instanceof ApiError && err.code === "ALREADY_ACKNOWLEDGED" ? (err.body.problem as Problem | undefined) : undefined;
        if (theirs) setProblems((list) => applyChange(list ?? [], { action: "acknowledged", problem: theirs }));
        if (err instanceof ApiError && err.code === "PROBLEM_NOT_FOUND") setProblems((list) => applyChange(list ?? [], { action: "resolved", problem: p }));
        toast.error(errorMessage(err, t("problems.ackFailed")));
      } finally {
        setBusy(null);
      }
    },
    [t],
  );

  return { problems, acknowledge, busy: (p: Problem) => busy === keyOf(p) };
}
