ALTER TABLE "status_notices" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "status_notices" ADD COLUMN "base_url" text;