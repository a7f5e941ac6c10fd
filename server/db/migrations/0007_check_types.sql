ALTER TABLE `monitors` ADD `type` text DEFAULT 'http' NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `keyword` text;--> statement-breakpoint
ALTER TABLE `monitors` ADD `keyword_invert` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `keyword_case_sensitive` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `json_path` text;--> statement-breakpoint
ALTER TABLE `monitors` ADD `max_response_time` integer;--> statement-breakpoint
ALTER TABLE `monitors` ADD `ignore_tls` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `tls_expiry_days` integer;--> statement-breakpoint
ALTER TABLE `monitors` ADD `host` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `port` integer;--> statement-breakpoint
ALTER TABLE `monitors` ADD `dns_record_type` text DEFAULT 'A' NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `dns_resolver` text;--> statement-breakpoint
ALTER TABLE `monitors` ADD `dns_expected` text;--> statement-breakpoint
ALTER TABLE `monitors` ADD `push_token` text;--> statement-breakpoint
ALTER TABLE `monitors` ADD `push_grace` integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `last_push_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `monitors_push_token_unique` ON `monitors` (`push_token`);