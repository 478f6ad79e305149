ALTER TABLE "rss_sources" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
-- API-key caches (src/modules/v1/auth.ts) are emptied on every KEYS_CHANGED notification. The Data
-- API now writes api_keys.last_used_at every few seconds (src/modules/keys/last-used.ts); that says
-- nothing about whether a key may be used, so it must not empty every instance's cache. Only the
-- columns a key check reads notify on update (statement-level triggers fire when one of them is SET).
DROP TRIGGER api_keys_changed ON api_keys;
--> statement-breakpoint
CREATE TRIGGER api_keys_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, account_id, tier, secret_hash, revoked_at ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION geroscope_notify_change('geroscope_keys_changed');
