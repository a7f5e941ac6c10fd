ALTER TABLE `check_results` ADD `ping` text;--> statement-breakpoint
ALTER TABLE `monitors` ADD `ping_count` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `ping_family` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `monitors` ADD `ping_loss_threshold` integer DEFAULT 100 NOT NULL;