// The later types' words (each type's i18n.ts) gathered by language, for the UI's translations (ui/i18n) and the
// notifications' messages. UI-safe: imports no client library.
import type { SettingsTypeName } from "../public";
import { manualI18n } from "./manual/i18n";
import type { TypeI18n, TypeLabels } from "./settings-type";
import { redisI18n } from "./redis/i18n";
import { mongodbI18n } from "./mongodb/i18n";
import { dockerI18n } from "./docker/i18n";
import { browserI18n } from "./browser/i18n";
import { smtpI18n } from "./mail/i18n";
import { imapI18n } from "./mail/i18n";
import { pop3I18n } from "./mail/i18n";
import { ntpI18n } from "./ntp/i18n";
import { snmpI18n } from "./snmp/i18n";
import { postgresI18n } from "./postgres/i18n";
import { mysqlI18n } from "./mysql/i18n";
import { websocketI18n } from "./websocket/i18n";
import { grpcI18n } from "./grpc/i18n";
import { mqttI18n } from "./mqtt/i18n";

export type Language = keyof TypeI18n;

export const SETTINGS_TYPE_I18N: Record<SettingsTypeName, TypeI18n> = {
  manual: manualI18n,
  redis: redisI18n,
  mongodb: mongodbI18n,
  docker: dockerI18n,
  browser: browserI18n,
  smtp: smtpI18n,
  imap: imapI18n,
  pop3: pop3I18n,
  ntp: ntpI18n,
  snmp: snmpI18n,
  postgres: postgresI18n,
  mysql: mysqlI18n,
  websocket: websocketI18n,
  grpc: grpcI18n,
  mqtt: mqttI18n,
};

const byType = <T>(lang: Language, pick: (labels: TypeLabels) => T) =>
  Object.fromEntries(Object.entries(SETTINGS_TYPE_I18N).map(([type, i18n]) => [type, pick(i18n[lang])])) as Record<SettingsTypeName, T>;

/** Each later type's name ("PostgreSQL"). */
export const settingsTypeNames = (lang: Language) => byType(lang, (l) => l.name);
/** Each later type's one line on what a check does. */
export const settingsTypeHints = (lang: Language) => byType(lang, (l) => l.description);
/** Each later type's field labels and hints, and select options' labels. */
export const settingsTypeFields = (lang: Language) => byType(lang, (l) => ({ fields: l.fields, options: l.options ?? {} }));
