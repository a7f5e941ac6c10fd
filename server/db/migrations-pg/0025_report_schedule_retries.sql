ALTER TABLE "report_schedules" ADD COLUMN "retry_attempts" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "retry_after" bigint;