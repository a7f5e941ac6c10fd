ALTER TABLE "notification_channels" ADD COLUMN "paced_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD COLUMN "pace_gap" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_messages" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "notification_messages" ADD COLUMN "claimed_until" bigint;