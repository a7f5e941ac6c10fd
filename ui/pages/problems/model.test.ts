import { describe, expect, test } from "bun:test";
import type { Problem } from "../../api/problems";
import { applyChange, conditionText, mergeRead } from "./model";

const problem = (over: Partial<Problem> = {}): Problem => ({ targetType: "monitor", targetId: 1, targetName: "Shop", condition: "down", since: 100, lastNotifiedAt: 100, ack: null, ...over });
const ack = { at: 200, by: "alice", via: "ui" as const, channel: null };

describe("conditions", () => {
  test("each condition's text and values", () => {
    expect(conditionText("down")).toEqual({ key: "problems.condition.down", values: {} });
    expect(conditionText("budget-spent")).toEqual({ key: "problems.condition.budgetSpent", values: {} });
    expect(conditionText("disk:/var/lib")).toEqual({ key: "problems.condition.disk", values: { mount: "/var/lib" } });
    expect(conditionText("container:web-1:restarts")).toEqual({ key: "problems.condition.container.restarts", values: { name: "web-1" } });
    expect(conditionText("container:odd")).toEqual({ key: "problems.condition.other", values: { condition: "container:odd" } });
    expect(conditionText("something-new")).toEqual({ key: "problems.condition.other", values: { condition: "something-new" } });
  });
});

describe("pushed changes", () => {
  test("raised adds (oldest first), acknowledged replaces, resolved removes that occurrence only", () => {
    const other = problem({ targetId: 2, since: 50 });
    let list = applyChange([], { action: "raised", problem: problem() });
    list = applyChange(list, { action: "raised", problem: other });
    expect(list.map((p) => p.targetId)).toEqual([2, 1]);
    list = applyChange(list, { action: "acknowledged", problem: problem({ ack }) });
    expect(list.find((p) => p.targetId === 1)!.ack).toEqual(ack);
    // A late "raised" of the same occurrence leaves the acknowledgement; a new occurrence replaces it.
    expect(applyChange(list, { action: "raised", problem: problem() }).find((p) => p.targetId === 1)!.ack).toEqual(ack);
    expect(applyChange(list, { action: "raised", problem: problem({ since: 300 }) }).find((p) => p.targetId === 1)!.ack).toBeNull();
    expect(applyChange(list, { action: "resolved", problem: problem({ since: 99 }) })).toHaveLength(2);
    expect(applyChange(list, { action: "resolved", problem: problem() }).map((p) => p.targetId)).toEqual([2]);
  });
});

test("a list read again keeps an acknowledgement pushed while the read was on its way, and drops what it no longer has", () => {
  const shown = [problem({ ack }), problem({ targetId: 2 })];
  expect(mergeRead(shown, [problem()])).toEqual([problem({ ack })]);
  expect(mergeRead(shown, [problem({ since: 300 })])).toEqual([problem({ since: 300 })]);
});
