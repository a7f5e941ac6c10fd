// The Kuma 2.5.3 sample (server/import/kuma/fixture) copied into a temp dir for a test, and its manifest.
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KNOWN_V1_PATCHES } from "./known-schemas";
import { KUMA_FIXTURE_DB, kumaManifest } from "./fixture";

export { type ManifestMonitor } from "./fixture";

/** manifest.json (server/import/kuma/fixture.ts). */
export const manifest = () => kumaManifest;

const dirs: string[] = [];

/** A temp dir holding a copy of the sample kuma.db (a Kuma data dir, as far as the importer is concerned). */
export function fixtureCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "vigil-kuma-test-"));
  dirs.push(dir);
  copyFileSync(KUMA_FIXTURE_DB, join(dir, "kuma.db"));
  return dir;
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "vigil-kuma-test-"));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs() {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A Kuma 1.23.17 kuma.db: its schema (testdata) with a few monitors, as Kuma 1.23 would have written them. */
export function kuma123(dir: string, patches = [...KNOWN_V1_PATCHES]): string {
  const file = join(dir, "kuma.db");
  const db = new Database(file);
  db.exec(readFileSync(join(import.meta.dir, "testdata/kuma-1.23-schema.sql"), "utf8"));
  db.run("INSERT INTO setting (key, value) VALUES ('database_version', '10'), ('databasePatchedFiles', ?)", [JSON.stringify(Object.fromEntries(patches.map((p) => [p, true])))]);
  db.run(
    `INSERT INTO monitor (id, name, type, url, interval, retry_interval, maxretries, timeout, active, accepted_statuscodes_json, keyword, invert_keyword, method)
     VALUES (1, 'Web', 'group', NULL, 60, 60, 0, 0, 1, '["200-299"]', NULL, 0, 'GET'),
            (2, 'Home', 'keyword', 'https://example.com/', 60, 30, 2, 0, 1, '["200-299"]', 'Welcome', 1, 'GET'),
            (3, 'Backup', 'push', NULL, 3600, 3600, 0, 0, 0, '["200-299"]', NULL, 0, 'GET'),
            (4, 'Cache', 'redis', NULL, 60, 60, 0, 0, 1, '["200-299"]', NULL, 0, 'GET')`,
  );
  db.run("UPDATE monitor SET parent = 1 WHERE id = 2");
  db.run("UPDATE monitor SET push_token = 'ab12CD34ef' WHERE id = 3");
  db.run("INSERT INTO tag (id, name, color) VALUES (1, 'env', '#059669')");
  db.run("INSERT INTO monitor_tag (monitor_id, tag_id, value) VALUES (2, 1, 'prod')");
  db.close();
  return file;
}

/** A Kuma 1.23 backup file as its Settings → Backup → Export wrote it (Monitor.toJSON() per monitor). */
export function kumaBackup() {
  return {
    version: "1.23.16",
    notificationList: [{ id: 7, name: "Ops Slack", config: JSON.stringify({ type: "slack", slackwebhookURL: "https://hooks.slack.com/x" }), active: 1, user_id: 1, is_default: 1 }],
    proxyList: [],
    monitorList: [
      {
        id: 1,
        name: "Web",
        description: null,
        pathName: "Web",
        parent: null,
        childrenIDs: [],
        url: "https://example.com/health",
        method: "GET",
        hostname: null,
        port: null,
        maxretries: 1,
        weight: 2000,
        active: true,
        forceInactive: false,
        type: "http",
        timeout: 24,
        interval: 30,
        retryInterval: 30,
        resendInterval: 0,
        keyword: null,
        invertKeyword: false,
        expiryNotification: false,
        ignoreTls: false,
        upsideDown: true,
        packetSize: 56,
        maxredirects: 10,
        accepted_statuscodes: ["200-299", "301"],
        dns_resolve_type: "A",
        dns_resolve_server: "1.1.1.1",
        notificationIDList: { "7": true },
        tags: [{ id: 1, monitor_id: 1, tag_id: 3, value: "prod", name: "env", color: "#2563EB" }],
        maintenance: false,
        headers: null,
        body: null,
        basic_auth_user: "ops",
        basic_auth_pass: "s3cret",
        authMethod: "basic",
        pushToken: null,
        httpBodyEncoding: "json",
        kafkaProducerBrokers: [],
        kafkaProducerSaslOptions: { mechanism: "None" },
        includeSensitiveData: true,
      },
      {
        id: 2,
        name: "Nightly job",
        parent: null,
        type: "push",
        active: false,
        interval: 86400,
        retryInterval: 86400,
        maxretries: 0,
        timeout: 48,
        pushToken: "pushtokenpushtokenpushtoken12345",
        accepted_statuscodes: ["200-299"],
        notificationIDList: {},
        tags: [],
      },
    ],
  };
}
