ALTER TABLE `report_schedules` ADD `retry_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `report_schedules` ADD `retry_after` integer;