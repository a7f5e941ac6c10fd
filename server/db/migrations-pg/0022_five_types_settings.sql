-- The first five types' settings move from their columns into the settings object their types declare
-- (server/monitors/types/<type>/settings.ts): each monitor keeps its own type's values, under the API's names.
UPDATE "monitors" SET "settings" = CASE "type"
  WHEN 'http' THEN jsonb_build_object('url', "url", 'method', "method", 'expectedStatus', "expected_status", 'headers', "headers",
    'body', "body", 'followRedirects', "follow_redirects", 'keyword', "keyword", 'keywordInvert', "keyword_invert",
    'keywordCaseSensitive', "keyword_case_sensitive", 'jsonPath', "json_path", 'maxResponseTime', "max_response_time",
    'ignoreTls', "ignore_tls", 'freshConnection', "fresh_connection", 'tlsExpiryDays', "tls_expiry_days")
  WHEN 'tcp' THEN jsonb_build_object('host', "host", 'port', "port")
  WHEN 'dns' THEN jsonb_build_object('host', "host", 'dnsRecordType', "dns_record_type", 'dnsResolver', "dns_resolver", 'dnsExpected', "dns_expected")
  WHEN 'push' THEN jsonb_build_object('pushGrace', "push_grace")
  WHEN 'ping' THEN jsonb_build_object('host', "host", 'pingCount', "ping_count", 'pingFamily', "ping_family",
    'pingLossThreshold', "ping_loss_threshold", 'maxResponseTime', "max_response_time")
  ELSE "settings" END
WHERE "type" IN ('http', 'tcp', 'dns', 'push', 'ping');--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "url";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "method";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "expected_status";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "headers";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "body";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "follow_redirects";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "keyword";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "keyword_invert";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "keyword_case_sensitive";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "json_path";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "max_response_time";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "ignore_tls";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "fresh_connection";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "tls_expiry_days";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "host";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "port";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "dns_record_type";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "dns_resolver";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "dns_expected";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "push_grace";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "ping_count";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "ping_family";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "ping_loss_threshold";