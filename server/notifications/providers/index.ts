// Every channel type's provider, by type.
import type { ChannelType } from "../public";
import { alertmanager } from "./alertmanager";
import { apprise } from "./apprise";
import { bark } from "./bark";
import { brevo } from "./brevo";
import { dingtalk } from "./dingtalk";
import { discord } from "./discord";
import { feishu } from "./feishu";
import { googlechat } from "./googlechat";
import { gotify } from "./gotify";
import { grafanaoncall } from "./grafanaoncall";
import { homeassistant } from "./homeassistant";
import { matrix } from "./matrix";
import { mattermost } from "./mattermost";
import { nextcloudtalk } from "./nextcloudtalk";
import { ntfy } from "./ntfy";
import { opsgenie } from "./opsgenie";
import { pagerduty } from "./pagerduty";
import type { Provider } from "./provider";
import { pushbullet } from "./pushbullet";
import { pushover } from "./pushover";
import { pushplus } from "./pushplus";
import { resend } from "./resend";
import { rocketchat } from "./rocketchat";
import { sendgrid } from "./sendgrid";
import { serverchan } from "./serverchan";
import { signal } from "./signal";
import { slack } from "./slack";
import { smtp } from "./smtp";
import { teams } from "./teams";
import { telegram } from "./telegram";
import { twilio } from "./twilio";
import { webhook } from "./webhook";
import { webpush } from "./webpush";
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
  ntfy,
  gotify,
  pushover,
  bark,
  serverchan,
  pushplus,
  pagerduty,
  webpush,
  apprise,
  signal,
  opsgenie,
  homeassistant,
  twilio,
  pushbullet,
  nextcloudtalk,
  grafanaoncall,
  alertmanager,
  sendgrid,
  brevo,
};

export function providerFor(type: ChannelType): Provider {
  return PROVIDERS[type] as unknown as Provider;
}
