DROP INDEX "claims_subject_entity_idx";--> statement-breakpoint
DROP INDEX "claims_object_entity_idx";--> statement-breakpoint
CREATE INDEX "claims_subject_entity_idx" ON "claims" USING btree ("subject_entity_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "claims_object_entity_idx" ON "claims" USING btree ("object_entity_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);