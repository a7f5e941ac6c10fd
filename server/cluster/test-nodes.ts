// Real `vigil` nodes for the tests that need several processes on one PostgreSQL schema (cluster/failover.test.ts,
// escalation/two-nodes.test.ts): server/main.ts started from source, each with its own data dir, its output kept
// line by line, its address read from the "listening on" line it prints once every service runs.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "..", "main.ts");

export interface TestNode {
  name: string;
  proc: ChildProcess;
  url: string;
  /** Every line it printed so far (stdout and stderr). */
  log: string[];
}

/** Polls `ok` every 200 ms; throws naming `what` after `ms`. */
export async function until(what: string, ok: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(200);
  }
}

export interface NodeOptions {
  /** The node's data dir is `<dataRoot>/<name>`. */
  dataRoot: string;
  /** The shared schema's URL (testSchema().url). */
  databaseUrl: string;
  /** More environment. */
  env?: Record<string, string>;
  /** Where the node's SIGKILL goes, for the test's afterAll. */
  cleanups: (() => unknown)[];
}

/** Starts a node named `name` (also its --node-name) and resolves once it listens. */
export async function startNode(name: string, { dataRoot, databaseUrl, env = {}, cleanups }: NodeOptions): Promise<TestNode> {
  const log: string[] = [];
  const proc = spawn(process.execPath, [MAIN, "--host", "127.0.0.1", "--port", "0", "--data-dir", join(dataRoot, name), "--node-name", name], {
    env: { ...process.env, VIGIL_DATABASE_URL: databaseUrl, VIGIL_LOG_LEVEL: "info", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let url = "";
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (line) log.push(line);
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) url = m[1]!;
    }
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  cleanups.push(() => proc.exitCode === null && proc.kill("SIGKILL"));
  await until(`${name} to listen`, () => url !== "" || proc.exitCode !== null, 30_000);
  if (!url) throw new Error(`${name} exited: ${log.join("\n")}`);
  return { name, proc, url, log };
}

/** What a node's /healthz says of its place in the cluster. */
export const health = async (node: TestNode) => (await (await fetch(`${node.url}/healthz`)).json()) as { leases: number; role: string };

/** One JSON API call to a node. */
export async function api(node: TestNode, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
