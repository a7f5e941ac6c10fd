ALTER TABLE "notification_alerts" ADD COLUMN "acked_at" bigint;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "acked_by" bigint;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "acked_by_name" text;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "acked_channel" text;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "ack_via" text;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD CONSTRAINT "notification_alerts_acked_by_users_id_fk" FOREIGN KEY ("acked_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;