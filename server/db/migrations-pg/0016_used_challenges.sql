CREATE TABLE "used_challenges" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "used_challenges_expires" ON "used_challenges" USING btree ("expires_at");