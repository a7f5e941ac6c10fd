ALTER TABLE "check_results" ADD COLUMN "ping" jsonb;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "ping_count" bigint DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "ping_family" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "ping_loss_threshold" bigint DEFAULT 100 NOT NULL;