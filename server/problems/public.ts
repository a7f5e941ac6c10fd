// The wire types of open problems and their acknowledgements (the UI imports them through ui/api/problems.ts). An open
// problem is an alert that was sent and has not cleared (a row of notification_alerts): a monitor down, an agent
// offline, over a usage threshold, a container in trouble, an error budget burning or spent. Routes:
// server/problems/routes.ts; docs/notifications.md, "Acknowledging".

/** How an acknowledgement was given: the UI (a session), the API (an API token), or a signed link from an alert. */
export const ACK_VIAS = ["ui", "api", "link"] as const;
export type AckVia = (typeof ACK_VIAS)[number];

export type ProblemTargetType = "monitor" | "agent";

/** Who said "I am on it", and when. */
export interface ProblemAck {
  /** Unix ms */
  at: number;
  /** The user's username, or "via link (<channel name>)" for a signed link. */
  by: string;
  via: AckVia;
  /** For a signed link: the name of the channel whose message carried it (null when that channel is gone). */
  channel: string | null;
}

/** GET /api/problems: one open problem. */
export interface Problem {
  targetType: ProblemTargetType;
  targetId: number;
  /** The monitor's or agent's name as it is now. */
  targetName: string;
  /** "down", "offline", "cpu", "memory", "disk:<mount>", "container:<name>:<problem>", "budget-burn", "budget-spent". */
  condition: string;
  /** When the trouble began (Unix ms): a new occurrence has a new `since`. */
  since: number;
  /** The last alert or reminder sent for it (Unix ms). */
  lastNotifiedAt: number;
  ack: ProblemAck | null;
}

/** POST /api/problems/ack: the open problem to acknowledge. */
export interface AckInput {
  targetType: ProblemTargetType;
  targetId: number;
  condition: string;
}

/** GET /api/ack/:token: what a signed link would acknowledge (changes nothing), and whether it already is. */
export interface AckLinkInfo {
  problem: Problem;
  /** The channel whose message carried the link (null when it is gone). */
  channel: string | null;
  /** When the link stops working (Unix ms). */
  expiresAt: number;
}

/** What changed about an open problem: pushed on the bus and the live socket ("problem.change"). */
export interface ProblemChange {
  action: "raised" | "acknowledged" | "resolved";
  problem: Problem;
  /** Heard from another node of the cluster. */
  remote?: boolean;
}

/** How long a signed link works after the alert that carried it was sent. */
export const ACK_LINK_TTL_MS = 7 * 86_400_000;
/** Longer tokens are refused unread (a real one is about 250 characters). */
export const ACK_TOKEN_MAX = 1024;
/** The longest condition a request may name (mount points and container names make them long). */
export const CONDITION_MAX = 512;
