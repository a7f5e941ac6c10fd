-- The first five types' settings move from their columns into the settings object their types declare
-- (server/monitors/types/<type>/settings.ts): each monitor keeps its own type's values, under the API's names.
UPDATE `monitors` SET `settings` = CASE `type`
  WHEN 'http' THEN json_object('url', `url`, 'method', `method`, 'expectedStatus', `expected_status`, 'headers', json(`headers`),
    'body', `body`, 'followRedirects', json(CASE WHEN `follow_redirects` THEN 'true' ELSE 'false' END), 'keyword', `keyword`,
    'keywordInvert', json(CASE WHEN `keyword_invert` THEN 'true' ELSE 'false' END), 'keywordCaseSensitive', json(CASE WHEN `keyword_case_sensitive` THEN 'true' ELSE 'false' END),
    'jsonPath', `json_path`, 'maxResponseTime', `max_response_time`, 'ignoreTls', json(CASE WHEN `ignore_tls` THEN 'true' ELSE 'false' END),
    'freshConnection', json(CASE WHEN `fresh_connection` THEN 'true' ELSE 'false' END), 'tlsExpiryDays', `tls_expiry_days`)
  WHEN 'tcp' THEN json_object('host', `host`, 'port', `port`)
  WHEN 'dns' THEN json_object('host', `host`, 'dnsRecordType', `dns_record_type`, 'dnsResolver', `dns_resolver`, 'dnsExpected', `dns_expected`)
  WHEN 'push' THEN json_object('pushGrace', `push_grace`)
  WHEN 'ping' THEN json_object('host', `host`, 'pingCount', `ping_count`, 'pingFamily', `ping_family`,
    'pingLossThreshold', `ping_loss_threshold`, 'maxResponseTime', `max_response_time`)
  ELSE `settings` END
WHERE `type` IN ('http', 'tcp', 'dns', 'push', 'ping');--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `url`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `method`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `expected_status`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `headers`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `body`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `follow_redirects`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `keyword`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `keyword_invert`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `keyword_case_sensitive`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `json_path`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `max_response_time`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `ignore_tls`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `fresh_connection`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `tls_expiry_days`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `host`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `port`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `dns_record_type`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `dns_resolver`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `dns_expected`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `push_grace`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `ping_count`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `ping_family`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `ping_loss_threshold`;