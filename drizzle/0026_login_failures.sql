CREATE TABLE "login_failures" (
	"username" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "login_failures_last_idx" ON "login_failures" USING btree ("last_failure_at");