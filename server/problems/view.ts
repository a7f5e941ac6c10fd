// What a role is shown of a problem change on the live socket (server/monitors/live.ts): what its GET /api/problems
// shows. Every role may list every open problem, as every role sees every monitor and agent; the place to narrow it
// is here, should roles ever see only some targets.
import type { Role } from "../users/public";
import type { ProblemChange } from "./public";

export const problemChangeView = (_role: Role, change: ProblemChange): ProblemChange => change;
