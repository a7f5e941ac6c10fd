ALTER TABLE "invites" ALTER COLUMN "role" SET DEFAULT 'editor';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'editor';--> statement-breakpoint
UPDATE "users" SET "role" = 'editor' WHERE "role" = 'user';--> statement-breakpoint
UPDATE "invites" SET "role" = 'editor' WHERE "role" = 'user';
