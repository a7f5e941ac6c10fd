// Test setup shared by the end-to-end notification tests: one webhook channel to a local fake, and settings that send
// every monitor and agent event to it, in English, with times in UTC.
import type { Reply } from "../test-support";

type Call = <T = Record<string, unknown>>(method: string, path: string, opts?: { token?: string; body?: unknown }) => Promise<Reply<T>>;

/** Creates the channel and the settings; returns the channel's id. */
export async function webhookForEverything(call: Call, token: string, hookUrl: string): Promise<number> {
  const channel = (await call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { token, body: { name: "Hook", type: "webhook", config: { url: hookUrl } } })).body.channel.id;
  const saved = await call("PUT", "/api/notifications/settings", {
    token,
    body: {
      monitor: { enabled: true, channelIds: [channel], events: { down: true, recovery: true }, reminderMinutes: 0 },
      agent: { enabled: true, channelIds: [channel], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
      language: "en-US",
      timeZone: "UTC",
    },
  });
  if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${JSON.stringify(saved.body)}`);
  return channel;
}
