import type { AckInput, AckLinkInfo, Problem } from "../../server/problems/public";
import { api } from "./client";

// Open problems and acknowledging them. The wire types are the server's (server/problems/public.ts).
export type * from "../../server/problems/public";

export const listProblems = () => api.get<{ problems: Problem[] }>("/api/problems");
export const acknowledgeProblem = (input: AckInput) => api.post<{ problem: Problem }>("/api/problems/ack", input);

/** What an alert's signed link would acknowledge; changes nothing (the page's button acts). Public. */
export const ackLinkInfo = (token: string) => api.get<AckLinkInfo>(`/api/ack/${encodeURIComponent(token)}`);
/** Acknowledges what the link names. Public: the link is the credential. */
export const acknowledgeByLink = (token: string) => api.post<{ problem: Problem }>(`/api/ack/${encodeURIComponent(token)}`);
