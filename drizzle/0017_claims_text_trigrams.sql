CREATE INDEX "claims_subject_text_trgm_idx" ON "claims" USING gin ("subject_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_object_text_trgm_idx" ON "claims" USING gin ("object_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_unresolved_subject_trgm_idx" ON "claims" USING gin ("subject_text" gin_trgm_ops) WHERE "claims"."subject_entity_id" is null;--> statement-breakpoint
CREATE INDEX "claims_unresolved_object_trgm_idx" ON "claims" USING gin ("object_text" gin_trgm_ops) WHERE "claims"."object_entity_id" is null;--> statement-breakpoint
CREATE INDEX "claims_organism_trgm_idx" ON "claims" USING gin ("organism" gin_trgm_ops);