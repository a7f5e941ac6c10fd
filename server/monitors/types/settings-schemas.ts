// The later types' settings schemas by name, without their check code (no client library): the UI builds each type's
// form from these, the server validates with the same objects (settings-registry.ts).
import type { TObject } from "@sinclair/typebox";
import type { SettingsTypeName } from "../public";
import { manualSettings } from "./manual/settings";
import { redisSettings } from "./redis/settings";
import { mongodbSettings } from "./mongodb/settings";
import { dockerSettings } from "./docker/settings";
import { browserSettings } from "./browser/settings";
import { smtpSettings } from "./mail/settings";
import { imapSettings } from "./mail/settings";
import { pop3Settings } from "./mail/settings";
import { ntpSettings } from "./ntp/settings";
import { snmpSettings } from "./snmp/settings";
import { postgresSettings } from "./postgres/settings";
import { mysqlSettings } from "./mysql/settings";
import { websocketSettings } from "./websocket/settings";
import { grpcSettings } from "./grpc/settings";
import { mqttSettings } from "./mqtt/settings";

export const SETTINGS_SCHEMAS: Record<SettingsTypeName, TObject> = {
  manual: manualSettings,
  redis: redisSettings,
  mongodb: mongodbSettings,
  docker: dockerSettings,
  browser: browserSettings,
  smtp: smtpSettings,
  imap: imapSettings,
  pop3: pop3Settings,
  ntp: ntpSettings,
  snmp: snmpSettings,
  postgres: postgresSettings,
  mysql: mysqlSettings,
  websocket: websocketSettings,
  grpc: grpcSettings,
  mqtt: mqttSettings,
};
