// `vigil-agent register`: trades the one-time token for the agent's own credential and saves it. Everything that can
// be checked before the token is spent is (the server address, that the credential file can be written), so a failure
// there leaves the token good for another try.
import { prepareConfig } from "./config";
import { AgentError, EXIT_USAGE, describeFetchError } from "./errors";
import type { HostInfo } from "../server/agents/protocol";

export interface RegisterInput {
  server: string;
  token: string;
  name: string | undefined;
  configPath: string;
  host: () => HostInfo;
}

/** What POST /api/agents/register answers. */
interface RegisterReply {
  success?: boolean;
  message?: string;
  agentId?: number;
  credential?: string;
  /** Never-reported agents registered earlier from this host under the same name, removed by this registration. */
  replaced?: { id: number; name: string }[];
}

/** The --server value as a base URL, or a usage error. */
export function serverUrl(server: string): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new AgentError(`--server must be an address like https://vigil.example.com, not "${server}"`, EXIT_USAGE);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AgentError(`--server must start with https:// or http://, not "${server}"`, EXIT_USAGE);
  }
  return url;
}

/** The reply as JSON, or an error saying what answered instead (a proxy's page, another web server …). */
async function replyOf(res: Response, server: string): Promise<RegisterReply> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as RegisterReply;
    if (body && typeof body === "object") return body;
  } catch {
    // not JSON: said below
  }
  const type = res.headers.get("content-type")?.split(";")[0] || "no content type";
  throw new AgentError(`${server} answered HTTP ${res.status} (${type}), not Vigil's API: check the --server address and any proxy in front of Vigil`);
}

/** Registers and saves the credential; returns the line to print. */
export async function register(input: RegisterInput): Promise<string> {
  const base = serverUrl(input.server);
  const pending = prepareConfig(input.configPath);
  let reply: RegisterReply;
  try {
    let res: Response;
    try {
      res = await fetch(new URL("/api/agents/register", base), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: input.token, name: input.name, host: input.host() }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (e) {
      throw new AgentError(describeFetchError(e, input.server));
    }
    reply = await replyOf(res, input.server);
    if (!res.ok || !reply.success) {
      throw new AgentError(`registration refused (HTTP ${res.status}): ${reply.message ?? "no reason given"}`);
    }
    if (typeof reply.agentId !== "number" || typeof reply.credential !== "string" || !reply.credential) {
      throw new AgentError(`${input.server} accepted the registration but sent no credential: is it a Vigil server of this version?`);
    }
  } catch (e) {
    pending.abandon();
    throw e;
  }
  try {
    pending.commit({ server: input.server, agentId: reply.agentId, credential: reply.credential });
  } catch (e) {
    pending.abandon();
    // Checked writable a moment ago, so this is rare (disk full …): the agent exists without a saved credential.
    throw new AgentError(
      `registered as agent ${reply.agentId} but could not save its credential to ${input.configPath} (${(e as Error).message}): ` +
        `delete that agent on the Agents page and register again with a new token`,
    );
  }
  const replaced = reply.replaced?.length
    ? `; it replaces ${reply.replaced.map((a) => `agent ${a.id}`).join(", ")}, registered earlier from this host but never reported`
    : "";
  return `registered as agent ${reply.agentId}; credential saved to ${input.configPath}${replaced}`;
}
