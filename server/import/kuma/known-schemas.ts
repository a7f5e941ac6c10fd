// The schema changes of every Uptime Kuma release this importer knows (from louislam/uptime-kuma): a database whose
// history names one not listed here comes from a newer Kuma, whose columns may mean something else.

/** Kuma 2.x: db/knex_migrations/*.js, including those that existed in 2.0 betas and were later removed. */
export const KNOWN_KNEX_MIGRATIONS: ReadonlySet<string> = new Set(
  [
    "2023-06-30-1348-http-body-encoding", "2023-06-30-1354-add-description-monitor", "2023-06-30-1357-api-key-table",
    "2023-06-30-1400-monitor-tls", "2023-06-30-1401-maintenance-cron", "2023-06-30-1413-add-parent-monitor",
    "2023-08-16-0000-create-uptime", "2023-08-18-0301-heartbeat", "2023-09-29-0000-heartbeat-retires",
    "2023-10-08-0000-mqtt-query", "2023-10-11-1915-push-token-to-32", "2023-10-16-0000-create-remote-browsers",
    "2023-12-20-0000-alter-status-page", "2023-12-21-0000-stat-ping-min-max", "2023-12-22-0000-hourly-uptime",
    "2024-01-22-0000-stats-extras", "2024-04-26-0000-snmp-monitor", "2024-08-24-000-add-cache-bust",
    "2024-08-24-0000-conditions", "2024-10-1315-rabbitmq-monitor", "2024-10-31-0000-fix-snmp-monitor",
    "2024-11-27-1927-fix-info-json-data-type", "2025-01-01-0000-add-smtp", "2025-02-15-2312-add-wstest",
    "2025-02-17-2142-generalize-analytics", "2025-03-04-0000-ping-advanced-options", "2025-03-25-0127-fix-5721",
    "2025-05-09-0000-add-custom-url", "2025-06-03-0000-add-ip-family", "2025-06-11-0000-add-manual-monitor",
    "2025-06-13-0000-maintenance-add-last-start", "2025-06-15-0001-manual-monitor-fix", "2025-06-24-0000-add-audience-to-oauth",
    "2025-07-17-0000-mqtt-websocket-path", "2025-09-02-0000-add-domain-expiry", "2025-10-14-0000-add-ip-family-fix",
    "2025-10-15-0000-stat-table-fix", "2025-10-15-0001-add-monitor-response-config", "2025-10-15-0002-add-response-to-heartbeat",
    "2025-10-24-0000-show-only-last-heartbeat", "2025-12-09-0000-add-local-service-monitor", "2025-12-09-0000-add-system-service-monitor",
    "2025-12-11-0000-rename-to-system-service-monitor", "2025-12-17-0000-add-globalping-monitor", "2025-12-22-0121-optimize-important-indexes",
    "2025-12-29-0000-remove-line-notify", "2025-12-31-2143-add-snmp-v3-username", "2026-01-02-0551-dns-last-result-to-text",
    "2026-01-02-0713-gamedig-v4-to-v5", "2026-01-05-0000-add-rss-title", "2026-01-05-0000-add-tls-monitor",
    "2026-01-06-0000-fix-domain-expiry-column-type", "2026-01-10-0000-convert-float-precision",
    "2026-01-15-0000-add-json-query-retry-only-status-code", "2026-01-16-0000-add-screenshot-delay",
    "2026-02-07-0000-disable-domain-expiry-unsupported-tlds", "2026-03-27-0000-add-ntp-monitor", "2026-05-20-0000-add-bearer-token",
    "2026-05-25-0000-add-gamedig-token", "2026-06-19-1411-add-rybbit-analytics-type", "2026-06-19-1412-analytics-type-to-string",
    "2026-07-22-0000-fix-stat-daily-overflow", "2026-08-18-0000-sqlite-only-drop-analytics-type-check",
  ].map((name) => `${name}.js`),
);

/** Kuma 1.x: the db/patch-*.sql files of server/database.js's patchList up to 1.23.x (recorded in the setting databasePatchedFiles). */
export const KNOWN_V1_PATCHES: ReadonlySet<string> = new Set([
  "patch-setting-value-type.sql", "patch-improve-performance.sql", "patch-2fa.sql", "patch-add-retry-interval-monitor.sql",
  "patch-incident-table.sql", "patch-group-table.sql", "patch-monitor-push_token.sql", "patch-http-monitor-method-body-and-headers.sql",
  "patch-2fa-invalidate-used-token.sql", "patch-notification_sent_history.sql", "patch-monitor-basic-auth.sql",
  "patch-add-docker-columns.sql", "patch-status-page.sql", "patch-proxy.sql", "patch-monitor-expiry-notification.sql",
  "patch-status-page-footer-css.sql", "patch-added-mqtt-monitor.sql", "patch-add-clickable-status-page-link.sql",
  "patch-add-sqlserver-monitor.sql", "patch-add-other-auth.sql", "patch-grpc-monitor.sql", "patch-add-radius-monitor.sql",
  "patch-monitor-add-resend-interval.sql", "patch-ping-packet-size.sql", "patch-maintenance-table2.sql",
  "patch-add-gamedig-monitor.sql", "patch-add-google-analytics-status-page-tag.sql", "patch-http-body-encoding.sql",
  "patch-add-description-monitor.sql", "patch-api-key-table.sql", "patch-monitor-tls.sql", "patch-maintenance-cron.sql",
  "patch-add-parent-monitor.sql", "patch-add-invert-keyword.sql", "patch-added-json-query.sql", "patch-added-kafka-producer.sql",
  "patch-add-certificate-expiry-status-page.sql", "patch-monitor-oauth-cc.sql", "patch-add-timeout-monitor.sql",
  "patch-add-gamedig-given-port.sql", "patch-notification-config.sql", "patch-fix-kafka-producer-booleans.sql",
  "patch-timeout.sql", "patch-monitor-tls-info-add-fk.sql",
]);

/** Kuma 1.x's last numbered patch (patch10.sql), kept in the setting database_version. */
export const KNOWN_V1_VERSION = 10;
