ALTER TABLE `status_notices` ADD `email` text;--> statement-breakpoint
ALTER TABLE `status_notices` ADD `base_url` text;