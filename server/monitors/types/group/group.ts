// The group type: a group checks nothing of its own. Its state follows its members' (server/monitors/groups.ts), so it
// has no target fields to validate, no check to run (the scheduler never runs groups) and nothing to name.
import type { CheckType } from "../check-type";

export const groupType: CheckType = {
  type: "group",
  validate() {},
  check: async () => null,
  target: () => "",
  facts: () => ({}),
};
