// Every channel type's provider, by type.
import type { ChannelType } from "../public";
import { dingtalk } from "./dingtalk";
import { discord } from "./discord";
import { feishu } from "./feishu";
import { googlechat } from "./googlechat";
import { matrix } from "./matrix";
import { mattermost } from "./mattermost";
import type { Provider } from "./provider";
import { resend } from "./resend";
import { rocketchat } from "./rocketchat";
import { slack } from "./slack";
import { smtp } from "./smtp";
import { teams } from "./teams";
import { telegram } from "./telegram";
import { webhook } from "./webhook";
import { wecom } from "./wecom";

export const PROVIDERS: { [T in ChannelType]: Provider<T> } = {
  resend,
  slack,
  telegram,
  webhook,
  dingtalk,
  wecom,
  feishu,
  smtp,
  discord,
  teams,
  googlechat,
  mattermost,
  rocketchat,
  matrix,
};

export function providerFor(type: ChannelType): Provider {
  return PROVIDERS[type] as unknown as Provider;
}
