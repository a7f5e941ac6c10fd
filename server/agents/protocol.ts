import { t, type Static } from "elysia";
import { MAX_CONTAINERS, MAX_SAMPLES_PER_REPORT } from "./limits";

// What an agent sends. The server validates every field with these schemas; the agent imports the types only.

const bytes = t.Number({ minimum: 0, maximum: 2 ** 62 });
const percent = t.Number({ minimum: 0, maximum: 100 });
const shortText = (max: number) => t.String({ maxLength: max });

export const diskSchema = t.Object({
  device: shortText(256),
  mountPoint: shortText(512),
  fsType: shortText(64),
  total: bytes,
  used: bytes,
  free: bytes,
  usageRate: percent,
});

export const interfaceSchema = t.Object({
  name: shortText(64),
  /** bytes per second since the previous sample */
  rxRate: bytes,
  txRate: bytes,
  received: bytes,
  sent: bytes,
  packetsReceived: bytes,
  packetsSent: bytes,
});

export const sampleSchema = t.Object({
  /** Unix ms when the sample was taken */
  time: t.Integer({ minimum: 0 }),
  cpu: t.Object({ usage: percent, cores: t.Integer({ minimum: 1, maximum: 4096 }), model: shortText(256) }),
  memory: t.Object({ total: bytes, used: bytes, free: bytes, usageRate: percent }),
  disks: t.Array(diskSchema, { maxItems: 64 }),
  network: t.Array(interfaceSchema, { maxItems: 64 }),
  load: t.Object({ one: t.Number({ minimum: 0, maximum: 1e6 }), five: t.Number({ minimum: 0, maximum: 1e6 }), fifteen: t.Number({ minimum: 0, maximum: 1e6 }) }),
});

export const hostSchema = t.Object({
  hostname: shortText(255),
  ips: t.Array(shortText(64), { maxItems: 64 }),
  os: shortText(128),
  kernel: shortText(128),
  arch: shortText(32),
  /** seconds since boot */
  uptime: t.Number({ minimum: 0, maximum: 1e10 }),
  agentVersion: shortText(32),
});

/** Most containers one report lists (defined in limits.ts, which the agent imports without elysia). */
export { MAX_CONTAINERS };

export const containerSchema = t.Object({
  /** The short id (12 hex digits). */
  id: shortText(64),
  name: shortText(256),
  image: shortText(512),
  /** created, running, paused, restarting, removing, exited, dead */
  state: shortText(32),
  /** The health check's verdict; null without one. */
  health: t.Union([t.Literal("healthy"), t.Literal("unhealthy"), t.Literal("starting"), t.Null()]),
  restarts: t.Integer({ minimum: 0, maximum: 1e9 }),
  /** Percent of one core × cores (like docker stats): null until two readings exist, or when not running. */
  cpu: t.Union([t.Number({ minimum: 0, maximum: 1e6 }), t.Null()]),
  /** bytes in use (page cache left out) and the limit; null when not running */
  memory: t.Union([bytes, t.Null()]),
  memoryLimit: t.Union([bytes, t.Null()]),
  /** Unix ms the container last started; null if never */
  startedAt: t.Union([t.Integer({ minimum: 0 }), t.Null()]),
});

/**
 * What the agent saw of the container engine (Docker, or Podman's Docker-compatible API) at `time`: `access` "ok" with
 * the list; "denied" when the socket exists but the agent's user may not read it (add it to the docker group);
 * "unavailable" when there is no socket (or it does not answer); "off" when the agent was told not to look.
 */
export const containersSchema = t.Object({
  time: t.Integer({ minimum: 0 }),
  access: t.Union([t.Literal("ok"), t.Literal("denied"), t.Literal("unavailable"), t.Literal("off")]),
  /** The socket read (or looked for). */
  socket: shortText(512),
  /** "Docker 27.3.1", "Podman 5.2.0": the engine's own name and version, when it answered. */
  engine: t.Optional(shortText(128)),
  /** Why access is not "ok", in the agent's words. */
  message: t.Optional(shortText(512)),
  /** Containers the engine had in all (the list holds at most MAX_CONTAINERS of them). */
  total: t.Integer({ minimum: 0, maximum: 1e9 }),
  list: t.Array(containerSchema, { maxItems: MAX_CONTAINERS }),
});

/** One report: the host facts and up to 500 samples, oldest first (more than one after an outage). */
export const reportSchema = t.Object({
  host: hostSchema,
  /** seconds between samples: the server marks the agent offline after 3 missed intervals */
  interval: t.Integer({ minimum: 1, maximum: 3600 }),
  samples: t.Array(sampleSchema, { minItems: 1, maxItems: MAX_SAMPLES_PER_REPORT }),
  /** The containers as they are now (agents before 2026-11 send none). */
  containers: t.Optional(containersSchema),
});

export type DiskSample = Static<typeof diskSchema>;
export type InterfaceSample = Static<typeof interfaceSchema>;
export type Sample = Static<typeof sampleSchema>;
export type HostInfo = Static<typeof hostSchema>;
export type Report = Static<typeof reportSchema>;
export type ContainerInfo = Static<typeof containerSchema>;
export type ContainersSnapshot = Static<typeof containersSchema>;
