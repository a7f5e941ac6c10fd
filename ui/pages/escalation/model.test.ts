import { expect, test } from "bun:test";
import type { EscalationPolicy } from "../../api/escalation";
import { draftOf, emptyDraft, inputOf, moveStep, newStep, phrasesOf, validateDraft, type PolicyDraft } from "./model";

const policy: EscalationPolicy = {
  id: 1,
  name: "Web on-call",
  steps: [
    { channelIds: [1], waitMinutes: 10 },
    { channelIds: [2, 3], waitMinutes: 20 },
    { channelIds: [4], waitMinutes: 5 },
  ],
  repeatEveryMinutes: 30,
  repeatLimit: 3,
  isDefault: false,
  monitorIds: [7],
  groupIds: [8],
  tags: ["shop"],
  people: [],
  schedules: [],
  createdAt: 0,
  updatedAt: 0,
};

const valid = (patch: Partial<PolicyDraft> = {}): PolicyDraft => ({ ...emptyDraft(), name: "P", steps: [newStep({ channelIds: [1] })], ...patch });

test("a policy round-trips through the form's draft", () => {
  const draft = draftOf(policy);
  expect(validateDraft(draft)).toEqual({});
  expect(inputOf(draft)).toEqual({
    name: "Web on-call",
    steps: policy.steps.map((s) => ({ ...s, userIds: [], scheduleIds: [] })),
    repeatEveryMinutes: 30,
    repeatLimit: 3,
    isDefault: false,
    monitorIds: [7],
    groupIds: [8],
    tags: ["shop"],
  });
});

test("the checks mirror the server's limits: 1-10 steps, 1-20 channels, 1-1440 minutes, 0-100 repeats", () => {
  expect(validateDraft(emptyDraft())).toEqual({ name: "escalation.form.errors.nameRequired", "steps.0.channels": "escalation.form.errors.noChannel" });
  expect(validateDraft(valid({ name: "x".repeat(101) })).name).toBe("escalation.form.errors.nameTooLong");
  expect(validateDraft(valid({ steps: [] })).steps).toBe("escalation.form.errors.stepsCount");
  expect(validateDraft(valid({ steps: Array.from({ length: 11 }, () => newStep({ channelIds: [1] })) })).steps).toBe("escalation.form.errors.stepsCount");
  expect(validateDraft(valid({ steps: Array.from({ length: 10 }, () => newStep({ channelIds: [1] })) }))).toEqual({});
  const many = Array.from({ length: 21 }, (_, i) => i + 1);
  expect(validateDraft(valid({ steps: [newStep({ channelIds: many })] }))["steps.0.channels"]).toBe("escalation.form.errors.tooManyChannels");
  expect(validateDraft(valid({ steps: [newStep({ channelIds: many.slice(1) })] }))).toEqual({});
  for (const wait of ["0", "1441", "1.5", "", "ten"]) {
    expect(validateDraft(valid({ steps: [newStep({ channelIds: [1] }, wait), newStep({ channelIds: [2] })] }))).toEqual({ "steps.0.wait": "escalation.form.errors.minutesInvalid" });
  }
  for (const wait of ["1", "1440"]) expect(validateDraft(valid({ steps: [newStep({ channelIds: [1] }, wait), newStep({ channelIds: [2] })] }))).toEqual({});
  // The last step's wait is not used: not asked, and a hidden bad one is not sent.
  const lastBad = valid({ steps: [newStep({ channelIds: [1] }, "5"), newStep({ channelIds: [2] }, "0")] });
  expect(validateDraft(lastBad)).toEqual({});
  expect(inputOf(lastBad).steps.map((s) => s.waitMinutes)).toEqual([5, 10]);
  expect(validateDraft(valid({ repeatEvery: "0" })).repeatEvery).toBe("escalation.form.errors.minutesInvalid");
  expect(validateDraft(valid({ repeatEvery: "30", repeatLimit: "101" })).repeatLimit).toBe("escalation.form.errors.repeatLimitInvalid");
  expect(validateDraft(valid({ repeatEvery: "30", repeatLimit: "0" }))).toEqual({});
  expect(validateDraft(valid({ tagDraft: "x".repeat(33) })).tags).toBe("monitors.validation.tagTooLong");
  expect(validateDraft(valid({ monitorIds: Array.from({ length: 1001 }, (_, i) => i + 1) })).targets).toBe("escalation.form.errors.tooManyTargets");
});

test("no repeat: null and 0 are sent; a tag still being typed is sent; channels once each", () => {
  const input = inputOf(valid({ name: "  P  ", steps: [newStep({ channelIds: [1, 1, 2] })], repeatEvery: " ", repeatLimit: "7", tags: ["a"], tagDraft: "b, A" }));
  expect(input).toMatchObject({ name: "P", steps: [{ channelIds: [1, 2], waitMinutes: 10 }], repeatEveryMinutes: null, repeatLimit: 0, tags: ["a", "b"] });
});

test("steps move up and down; out of range leaves them", () => {
  const steps = [newStep({ channelIds: [1] }), newStep({ channelIds: [2] }), newStep({ channelIds: [3] })];
  expect(moveStep(steps, 1, -1).map((s) => s.channelIds[0])).toEqual([2, 1, 3]);
  expect(moveStep(steps, 1, 1).map((s) => s.channelIds[0])).toEqual([1, 3, 2]);
  expect(moveStep(steps, 0, -1).map((s) => s.channelIds[0])).toEqual([1, 2, 3]);
  expect(moveStep(steps, 2, 1).map((s) => s.channelIds[0])).toEqual([1, 2, 3]);
});

test("the steps in words: each wait but the last, and the last step's repeats", () => {
  expect(phrasesOf(policy)).toEqual([
    { n: 1, channelIds: [1], userIds: [], scheduleIds: [], after: 10, again: null },
    { n: 2, channelIds: [2, 3], userIds: [], scheduleIds: [], after: 20, again: null },
    { n: 3, channelIds: [4], userIds: [], scheduleIds: [], after: null, again: { every: 30, count: 3 } },
  ]);
  expect(phrasesOf({ ...policy, repeatLimit: 0 })[2]!.again).toBeNull();
  expect(phrasesOf({ ...policy, repeatEveryMinutes: null })[2]!.again).toBeNull();
});

test("a step may page people and on-call schedules instead of channels; all three count toward the limit", () => {
  expect(validateDraft(valid({ steps: [newStep({ userIds: [7] })] }))).toEqual({});
  expect(validateDraft(valid({ steps: [newStep({ scheduleIds: [2] })] }))).toEqual({});
  expect(validateDraft(valid({ steps: [newStep()] }))["steps.0.channels"]).toBe("escalation.form.errors.noChannel");
  const ten = Array.from({ length: 10 }, (_, i) => i + 1);
  expect(validateDraft(valid({ steps: [newStep({ channelIds: ten, userIds: ten })] }))).toEqual({});
  expect(validateDraft(valid({ steps: [newStep({ channelIds: ten, userIds: ten, scheduleIds: [1] })] }))["steps.0.channels"]).toBe("escalation.form.errors.tooManyChannels");
  const input = inputOf(valid({ steps: [newStep({ channelIds: [1], userIds: [3, 3, 4], scheduleIds: [2] })] }));
  expect(input.steps).toEqual([{ channelIds: [1], userIds: [3, 4], scheduleIds: [2], waitMinutes: 10 }]);
  const back = draftOf({ ...policy, steps: [{ channelIds: [], userIds: [3], scheduleIds: [2], waitMinutes: 5 }, { channelIds: [1], waitMinutes: 5 }] });
  expect(back.steps.map((s) => [s.channelIds, s.userIds, s.scheduleIds])).toEqual([[[], [3], [2]], [[1], [], []]]);
});
