// Every channel type's provider, by type.
import type { ChannelType } from "../public";
import { dingtalk } from "./dingtalk";
import { feishu } from "./feishu";
import type { Provider } from "./provider";
import { resend } from "./resend";
import { slack } from "./slack";
import { telegram } from "./telegram";
import { webhook } from "./webhook";
import { wecom } from "./wecom";

export const PROVIDERS: { [T in ChannelType]: Provider<T> } = { resend, slack, telegram, webhook, dingtalk, wecom, feishu };

export function providerFor(type: ChannelType): Provider {
  return PROVIDERS[type] as unknown as Provider;
}
