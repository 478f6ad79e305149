-- Operators can disable an account (no login, sessions ended, API keys refused while disabled_at is set), and a
-- member's session ends once the membership it last saw as active has lapsed (sessions.membership; see
-- src/modules/admin/auth/sessions.ts). Sessions open now take their account's current membership.
ALTER TABLE "accounts" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "membership" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "membership" = "accounts"."membership"
  FROM "accounts" WHERE "accounts"."id" = "sessions"."account_id";
