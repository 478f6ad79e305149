-- /claims?subject= (or object=) naming an entity: besides the entity's own claims, the page holds the unresolved
-- sides whose text contains the value, newest first (src/queries/claims.ts). Where the planner walks for those, it
-- walked every claim newest first, nine in ten of them resolved (27 ms for "INS" at a million papers); these walk
-- only the unresolved ones (5-9 ms). They do not carry the text (INCLUDE): the planner prices testing a text at
-- almost nothing, and with the text in the index it walked every unresolved side for the counts of such a filter
-- (65-80 ms) instead of asking the trigram index (2.6-6.2 ms).
CREATE INDEX "claims_unresolved_subject_created_idx" ON "claims" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "claims"."subject_entity_id" is null;--> statement-breakpoint
CREATE INDEX "claims_unresolved_object_created_idx" ON "claims" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "claims"."object_entity_id" is null;
