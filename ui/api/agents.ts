import type {
  AgentLiveMessages,
  AgentSeries,
  AgentStatus,
  ContainerInfo,
  ContainersSnapshot,
  DiskSample,
  InterfaceSample,
  PublicAgent,
  Sample,
  SeriesRange,
} from "../../server/agents/public";
import type { AgentTarget } from "../../server/agents/downloads";
import type { AgentService } from "../../server/agents/service";
import { api, fetchFile, type ExportFormat } from "./client";

export type { AgentLiveMessages, AgentSeries, AgentStatus, AgentTarget, ContainerInfo, ContainersSnapshot, DiskSample, InterfaceSample, PublicAgent, Sample, SeriesRange };

/** An unused, unexpired registration token as the list shows it: never the secret itself (the server keeps a hash). */
export type PendingToken = Awaited<ReturnType<AgentService["pendingTokens"]>>[number];

/** The chart ranges of the detail page, shortest first. */
export const SERIES_RANGES: readonly SeriesRange[] = ["1h", "24h", "7d", "30d"];

/** Agent names, as the server checks them. */
export const AGENT_NAME_MAX = 100;

export interface RegistrationToken {
  /** The token itself: shown once, the server keeps only its hash. */
  token: string;
  /** Unix ms. */
  expiresAt: number;
}

export const listAgents = () => api.get<{ agents: PublicAgent[] }>("/api/agents");

export const getAgent = (id: number) => api.get<{ agent: PublicAgent }>(`/api/agents/${id}`);

export const getAgentSeries = (id: number, range: SeriesRange) =>
  api.get<{ series: AgentSeries }>(`/api/agents/${id}/series?range=${encodeURIComponent(range)}`);

/** The agent's containers as it last saw them (null: it never said: an older agent). */
/** GET /api/agents/:id/export: raw samples with from <= time < to (Unix ms), as a CSV or NDJSON file. */
export const exportSamples = (id: number, format: ExportFormat, from: number, to: number) =>
  fetchFile(`/api/agents/${id}/export?format=${format}&from=${from}&to=${to}`, `agent-${id}-samples.${format}`);

export const getAgentContainers = (id: number) => api.get<{ containers: ContainersSnapshot | null }>(`/api/agents/${id}/containers`);

export const updateAgent = (id: number, input: { name: string; location?: string | null }) => api.put<{ agent: PublicAgent }>(`/api/agents/${id}`, input);

export const deleteAgent = (id: number) => api.delete<object>(`/api/agents/${id}`);

/** A one-time registration token for /agents/create (valid 24 h, single use). */
export const createAgentToken = () => api.post<RegistrationToken>("/api/agents/tokens");

/** The registration tokens not used yet and not expired, oldest first. */
export const listAgentTokens = () => api.get<{ tokens: PendingToken[] }>("/api/agents/tokens");

/** Revokes an unused token (404 TOKEN_NOT_FOUND when it was used, expired or revoked meanwhile). */
export const revokeAgentToken = (id: number) => api.delete<object>(`/api/agents/tokens/${id}`);

/** The agent builds this server offers for download (anyone may ask). */
export const listAgentTargets = () => api.get<{ targets: AgentTarget[] }>("/api/agents/targets");
