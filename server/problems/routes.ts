// /api/problems: the open problems (every signed-in role sees them) and acknowledging one (editors and admins, API
// tokens with write scope). /api/ack/:token: the signed link an alert carries — public, since whoever got the alert may
// not be signed in on that phone; it acknowledges that one occurrence and nothing else. Its GET only says what the
// link is for (mail scanners and chat previews open links): the page /ack/:token asks, and its button POSTs.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { FailureLimiter } from "../auth/rate-limit";
import { clientIp } from "../http/client-ip";
import { HttpError } from "../http/errors";
import { doc } from "../http/openapi";
import { ACK_TOKEN_MAX, CONDITION_MAX } from "./public";
import type { Problems } from "./service";

export interface ProblemRouteDeps {
  problems: Problems;
  session: ReturnType<typeof sessions>;
  /** Trusted reverse proxies in front of Vigil (http/client-ip.ts): bad links are counted per caller. */
  trustProxy: number;
  /** Bad links (forged, garbled, expired) one address may try per window before 429 (tests lower it). */
  linkLimiter?: FailureLimiter;
}

/** Bad links per address: a person mistyping never meets it; a script trying tokens is slowed to a crawl. */
export const LINK_FAILURES_MAX = 20;
export const LINK_WINDOW_MS = 10 * 60_000;

const ackBody = t.Object({
  targetType: t.UnionEnum(["monitor", "agent"], { error: "targetType must be monitor or agent" }),
  targetId: t.Integer({ minimum: 1, error: "targetId must be a positive integer" }),
  condition: t.String({ minLength: 1, maxLength: CONDITION_MAX, error: `condition must be 1-${CONDITION_MAX} characters (down, offline, cpu, disk:/data…)` }),
});
// Length is checked by the link code (a bad one is ACK_LINK_INVALID like any other), not here, so every bad link answers alike.
const tokenParams = t.Object({ token: t.String() });

export function problemRoutes({ problems, session, trustProxy, linkLimiter = new FailureLimiter(LINK_FAILURES_MAX, LINK_WINDOW_MS) }: ProblemRouteDeps) {
  /** Runs a link's call, counting bad links against the caller's address (429 once there were too many). */
  async function withLink<T>(request: Request, server: Parameters<typeof clientIp>[1], set: { headers: Record<string, unknown> }, fn: () => Promise<T>): Promise<T> {
    const ip = clientIp(request, server, trustProxy);
    const wait = linkLimiter.retryAfter(ip);
    if (wait > 0) {
      set.headers["retry-after"] = String(wait);
      throw new HttpError(429, "TOO_MANY_REQUESTS", `Too many bad links from your address: try again in ${Math.ceil(wait / 60)} minute(s)`, { retryAfter: wait });
    }
    try {
      return await fn();
    } catch (e) {
      if (e instanceof HttpError && e.status === 400) linkLimiter.fail(ip);
      throw e;
    }
  }
  const token = (params: { token: string }) => params.token.slice(0, ACK_TOKEN_MAX + 1);

  const signedIn = new Elysia({ prefix: "/api/problems", detail: { tags: ["problems"] } })
    .use(session)
    .get("", async () => ({ success: true, problems: await problems.list() }), {
      auth: "user",
      detail: doc("The open problems (alerts sent and not yet resolved), oldest first, each with who acknowledged it"),
    })
    .post(
      "/ack",
      async ({ body, user, via }) => ({
        success: true,
        message: "Acknowledged: reminders stop until it recovers",
        problem: await problems.acknowledge(body, user, via === "token" ? "api" : "ui"),
      }),
      { auth: "editor", body: ackBody, detail: doc("Acknowledge an open problem (\"I am on it\"): its reminders stop until it is resolved", 404, 409) },
    );

  const links = new Elysia({ prefix: "/api/ack", detail: { tags: ["problems"] } })
    .get(
      "/:token",
      async ({ params, request, server, set }) => ({ success: true, ...(await withLink(request, server, set, () => problems.inspect(token(params)))) }),
      { params: tokenParams, detail: doc("What an alert's acknowledgement link is for, and whether it is acknowledged already; changes nothing", 409, 429) },
    )
    .post(
      "/:token",
      async ({ params, request, server, set }) => ({
        success: true,
        message: "Acknowledged: reminders stop until it recovers",
        problem: await withLink(request, server, set, () => problems.acknowledgeByLink(token(params))),
      }),
      { params: tokenParams, detail: doc("Acknowledge the problem an alert's signed link names (no sign-in: the link is the credential)", 409, 429) },
    );

  return new Elysia().use(signedIn).use(links);
}
