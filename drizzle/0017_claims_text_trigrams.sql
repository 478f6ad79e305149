CREATE INDEX "claims_subject_text_trgm_idx" ON "claims" USING gin ("subject_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_object_text_trgm_idx" ON "claims" USING gin ("object_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_organism_trgm_idx" ON "claims" USING gin ("organism" gin_trgm_ops);