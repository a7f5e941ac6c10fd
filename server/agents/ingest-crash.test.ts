// Agent ingest on PostgreSQL across SIGKILL: a real server (server/main.ts) on a fresh schema, several agents reporting
// as fast as they are answered (so reports share the writer's batches), the process killed mid-load. Every sample the
// server acknowledged must be in agent_samples afterwards: a report is answered only once its batch is committed.
// (SQLite's side of this is server/cli/crash.test.ts.)
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { openDatabase } from "../db/open";
import { testEngine, testSchema } from "../db/test-db";
import { api, startNode, until } from "../cluster/test-nodes";
import { PASSWORD } from "../test-support";
import { testHost, testSample } from "./test-fixtures";

const AGENTS = 4;
const LOAD_MS = 3_000;

describe.skipIf(testEngine !== "postgres")("agent ingest on PostgreSQL", () => {
  const cleanups: (() => unknown)[] = [];
  const dataRoot = mkdtempSync(`${tmpdir()}/vigil-ingest-crash-`);
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean();
    rmSync(dataRoot, { recursive: true, force: true });
  });

  test("SIGKILL while agents report: every acknowledged sample is in the database", async () => {
    const schema = await testSchema();
    cleanups.push(schema.drop);
    const node = await startNode("ingest", { dataRoot, databaseUrl: schema.url, cleanups });
    await api(node, "POST", "/api/auth/register", { username: "alice", password: PASSWORD });
    const token = (await api(node, "POST", "/api/auth/login", { username: "alice", password: PASSWORD })).body.token as string;
    const agents: { id: number; credential: string }[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const enrol = (await api(node, "POST", "/api/agents/tokens", {}, token)).body.token as string;
      const reply = await api(node, "POST", "/api/agents/register", { token: enrol, name: `db-${i}`, host: { ...testHost, hostname: `db-${i}` } });
      expect(reply.status).toBe(201);
      agents.push({ id: reply.body.agentId, credential: reply.body.credential });
    }

    const acked: { agent: number; time: number }[] = [];
    let killed = false;
    const loops = agents.map(({ id, credential }) =>
      (async () => {
        for (let time = Date.now() - 600_000; !killed; time += 50) {
          const res = await fetch(`${node.url}/api/agents/report`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
            body: JSON.stringify({ host: testHost, interval: 5, samples: [testSample(time)] }),
          }).catch(() => null);
          if (res?.status === 200) acked.push({ agent: id, time });
        }
      })(),
    );
    const started = Date.now();
    await until("samples acknowledged under load", () => Date.now() - started > LOAD_MS && acked.length > 50, 60_000);
    node.proc.kill("SIGKILL");
    await new Promise((resolve) => (node.proc.exitCode !== null ? resolve(null) : node.proc.once("exit", resolve)));
    killed = true;
    await Promise.all(loops);
    expect(acked.length).toBeGreaterThan(50);

    const db = await openDatabase(schema.url);
    try {
      const rows = (await db.pg!`SELECT agent_id, time FROM agent_samples`) as { agent_id: string | number; time: string | number }[];
      const stored = new Set(rows.map((r) => `${Number(r.agent_id)}:${Number(r.time)}`));
      expect(acked.filter((a) => !stored.has(`${a.agent}:${a.time}`))).toEqual([]);
      expect(new Set(rows.map((r) => Number(r.agent_id))).size).toBe(AGENTS);
    } finally {
      await db.close();
    }
  }, 120_000);
});
