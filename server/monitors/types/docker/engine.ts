// The Docker Engine API as Vigil reads it — Docker's, or Podman's Docker-compatible service. Shared by the agent's
// container collector (agent/collect/containers.ts) and the docker check type (docker.ts). No imports: the agent,
// which must stay small, takes this file and nothing else from here.

/** Docker's socket, and rootful Podman's (`systemctl enable --now podman.socket`). */
export const DOCKER_SOCKET = "/var/run/docker.sock";
export const PODMAN_SOCKET = "/run/podman/podman.sock";

export type ContainerHealth = "healthy" | "unhealthy" | "starting" | null;

/** The part of GET /containers/{id}/json that Vigil reads. */
export interface EngineInspect {
  Name?: string;
  RestartCount?: number;
  State?: { Status?: string; StartedAt?: string; Health?: { Status?: string } };
}

/** A healthcheck's state; null without a healthcheck (Docker leaves Health out, Podman sends an empty Status). */
export const engineHealth = (status: string | undefined): ContainerHealth =>
  status === "healthy" || status === "unhealthy" || status === "starting" ? status : null;

/**
 * A GET on the engine over its Unix socket (Bun's fetch `unix`); `path` is the API's, "/containers/web/json".
 * `keepalive: false` closes the connection after the reply (a check keeps nothing open between runs).
 */
export const unixGet = (socket: string, path: string, signal: AbortSignal, keepalive = true): Promise<Response> =>
  fetch(`http://localhost${path}`, { unix: socket, signal, keepalive } as RequestInit);

/** A reply's status and JSON body (null when the body is not JSON). */
export async function engineJson<T>(res: Response): Promise<{ status: number; body: T | null }> {
  const body = (await res.json().catch(() => null)) as T | null;
  return { status: res.status, body };
}

/** The engine's own words on a failed request: {"message": "..."}. */
export const engineMessage = (body: unknown): string =>
  typeof (body as { message?: unknown } | null)?.message === "string" ? (body as { message: string }).message : "";
