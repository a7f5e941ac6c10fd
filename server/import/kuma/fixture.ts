// The sample Kuma 2.5.3 database made by a real Kuma server and the manifest of what it holds (copied from the shared
// fixtures so a clean checkout has it): the expected side of the import tests. Tests copy it before opening it.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const KUMA_FIXTURE_DIR = join(import.meta.dir, "fixture");
export const KUMA_FIXTURE_DB = join(KUMA_FIXTURE_DIR, "kuma.db");

export interface ManifestMonitor {
  id: number;
  name: string;
  type: string;
  parent_id: number | null;
  paused: boolean;
  interval: number;
  retry_interval: number;
  maxretries: number;
  resend_interval: number;
  timeout: number;
  upside_down: boolean;
  push_token: string | null;
  accepted_statuscodes: string[];
  tags: { name: string; color: string; value: string }[];
  settings_set: Record<string, unknown>;
  /** The docker_host and remote_browser rows it uses. */
  docker_host: { id: number; name: string; type: string; daemon: string } | null;
  remote_browser: { id: number; name: string; url: string } | null;
  heartbeats: Record<string, number>;
}

/** manifest.json, typed where tests read it. */
export const kumaManifest = JSON.parse(readFileSync(join(KUMA_FIXTURE_DIR, "manifest.json"), "utf8")) as {
  kuma_version: string;
  counts: Record<string, unknown> & { monitors: number; heartbeats: number; monitor_types: Record<string, number> };
  monitors: ManifestMonitor[];
  [key: string]: unknown;
};
