import { t, type Static } from "elysia";
import { MAX_SAMPLES_PER_REPORT } from "./limits";

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

/** One report: the host facts and up to 500 samples, oldest first (more than one after an outage). */
export const reportSchema = t.Object({
  host: hostSchema,
  /** seconds between samples: the server marks the agent offline after 3 missed intervals */
  interval: t.Integer({ minimum: 1, maximum: 3600 }),
  samples: t.Array(sampleSchema, { minItems: 1, maxItems: MAX_SAMPLES_PER_REPORT }),
});

export type DiskSample = Static<typeof diskSchema>;
export type InterfaceSample = Static<typeof interfaceSchema>;
export type Sample = Static<typeof sampleSchema>;
export type HostInfo = Static<typeof hostSchema>;
export type Report = Static<typeof reportSchema>;
