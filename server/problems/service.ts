// Open problems and acknowledging them: by a signed-in user (the UI or an API token) or by a signed link from an
// alert. The state lives on the alert's row (server/notifications/alerts.ts); this decides who may say what and the
// answers they get.
import { conflict, HttpError, notFound } from "../http/errors";
import type { AlertKey, AlertRow, AlertStore, AckRecord } from "../notifications/alerts";
import type { AckLinks } from "./links";
import type { AckLinkInfo, Problem } from "./public";

export interface ProblemsOptions {
  alerts: AlertStore;
  links: AckLinks;
  /** A channel's name (undefined: it was deleted). */
  channelName: (id: number) => Promise<string | undefined>;
  now?: () => number;
}

const problemNotFound = () => notFound("PROBLEM_NOT_FOUND", "There is no such open problem: it may have been resolved");
const problemResolved = () =>
  conflict("PROBLEM_RESOLVED", "This problem has been resolved since the alert was sent: there is nothing to acknowledge");

/** 409 naming who acknowledged it and when (UTC), with the acknowledgement itself for programs. */
function alreadyAcknowledged(alerts: AlertStore, row: AlertRow) {
  const problem = alerts.toProblem(row);
  const ack = problem.ack!;
  return new HttpError(409, "ALREADY_ACKNOWLEDGED", `Already acknowledged by ${ack.by} at ${new Date(ack.at).toISOString()}`, { problem });
}

export function createProblems({ alerts, links, channelName, now = Date.now }: ProblemsOptions) {
  /** The occurrence a token names, or 400 ACK_LINK_INVALID / ACK_LINK_EXPIRED. */
  async function verified(token: string) {
    const link = await links.verify(token);
    if (!link.ok) {
      throw link.reason === "expired"
        ? new HttpError(400, "ACK_LINK_EXPIRED", "This acknowledgement link has expired: acknowledge the problem in Vigil instead")
        : new HttpError(400, "ACK_LINK_INVALID", "This acknowledgement link is not valid");
    }
    return link;
  }

  async function acknowledge(key: AlertKey, ack: AckRecord, since?: number): Promise<Problem> {
    const done = await alerts.acknowledge(key, ack, since);
    if (done.ok) return alerts.toProblem(done.row);
    if (done.reason === "acknowledged") throw alreadyAcknowledged(alerts, done.row);
    throw done.reason === "resolved" ? problemResolved() : problemNotFound();
  }

  return {
    /** Every open problem, oldest first. */
    list: (): Promise<Problem[]> => alerts.problems(),

    /** A signed-in user says "I am on it": through the UI (a session) or the API (an API token). */
    acknowledge: (key: AlertKey, user: { id: number; username: string }, via: "ui" | "api") =>
      acknowledge(key, { at: now(), by: user.id, byName: user.username, via, channel: null }),

    /** What a link would acknowledge, changing nothing (mail scanners open links): 400 bad link, 409 resolved since. */
    async inspect(token: string): Promise<AckLinkInfo> {
      const { ref, expiresAt } = await verified(token);
      const row = await alerts.find(ref);
      if (!row || row.since !== ref.since) throw problemResolved();
      return { problem: alerts.toProblem(row), channel: (await channelName(ref.channelId)) ?? null, expiresAt };
    },

    /** Acknowledges what a link names, once; recorded as "via link (<channel name>)". */
    async acknowledgeByLink(token: string): Promise<Problem> {
      const { ref } = await verified(token);
      const channel = (await channelName(ref.channelId)) ?? null;
      return acknowledge(ref, { at: now(), by: null, byName: channel === null ? "via link" : `via link (${channel})`, via: "link", channel }, ref.since);
    },
  };
}

export type Problems = ReturnType<typeof createProblems>;
