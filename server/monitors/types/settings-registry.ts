// The later check types by name: each is one folder declaring its settings (settings-type.ts). Adding a type is one
// line here and its name in public.ts SETTINGS_TYPE_NAMES.
import type { SettingsTypeName } from "../public";
import { manualType } from "./manual/manual";
import type { AnySettingsType } from "./settings-type";
import { redisType } from "./redis/redis";
import { mongodbType } from "./mongodb/mongodb";
import { dockerType } from "./docker/docker";
import { browserType } from "./browser/browser";
import { smtpType } from "./mail/smtp";
import { imapType } from "./mail/imap";
import { pop3Type } from "./mail/pop3";
import { ntpType } from "./ntp/ntp";
import { snmpType } from "./snmp/snmp";
import { postgresType } from "./postgres/postgres";
import { mysqlType } from "./mysql/mysql";
import { websocketType } from "./websocket/websocket";
import { grpcType } from "./grpc/grpc";
import { mqttType } from "./mqtt/mqtt";

export const SETTINGS_TYPES: Record<SettingsTypeName, AnySettingsType> = {
  manual: manualType as unknown as AnySettingsType,
  redis: redisType as unknown as AnySettingsType,
  mongodb: mongodbType as unknown as AnySettingsType,
  docker: dockerType as unknown as AnySettingsType,
  browser: browserType as unknown as AnySettingsType,
  smtp: smtpType as unknown as AnySettingsType,
  imap: imapType as unknown as AnySettingsType,
  pop3: pop3Type as unknown as AnySettingsType,
  ntp: ntpType as unknown as AnySettingsType,
  snmp: snmpType as unknown as AnySettingsType,
  postgres: postgresType as unknown as AnySettingsType,
  mysql: mysqlType as unknown as AnySettingsType,
  websocket: websocketType as unknown as AnySettingsType,
  grpc: grpcType as unknown as AnySettingsType,
  mqtt: mqttType as unknown as AnySettingsType,
};
