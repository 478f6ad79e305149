ALTER TABLE "entities" ADD COLUMN "aliases" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "entities_aliases_idx" ON "entities" USING gin ("aliases");--> statement-breakpoint
CREATE INDEX "entities_lower_name_idx" ON "entities" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "entities_lower_key_idx" ON "entities" USING btree (lower("key"));