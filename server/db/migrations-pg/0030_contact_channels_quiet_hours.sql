CREATE TABLE "user_quiet_hours" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"quiet_hours" jsonb NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_channels" ADD COLUMN "owner_user_id" bigint;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "notification_events" ADD COLUMN "importance" text DEFAULT 'high' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_quiet_hours" ADD CONSTRAINT "user_quiet_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_channels_owner" ON "notification_channels" USING btree ("owner_user_id");