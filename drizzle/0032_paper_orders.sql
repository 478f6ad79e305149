-- The other orders of /api/v1/papers (src/queries/paper-order.ts): newest published first and most newsworthy
-- first, each then by id; a paper without a publication date or a newsworthiness sorts last. The expressions must
-- stay as src/queries/paper-order.ts writes them, or the planner cannot match them.
CREATE INDEX "papers_published_order_idx" ON "papers" USING btree (coalesce("published_date", '-infinity'::date) desc,"id");--> statement-breakpoint
CREATE INDEX "papers_newsworthiness_order_idx" ON "papers" USING btree (coalesce("newsworthiness", -1) desc,"id");
