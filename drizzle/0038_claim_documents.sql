CREATE TABLE "claim_documents" (
	"claim_id" integer PRIMARY KEY NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"body" text
);
--> statement-breakpoint
ALTER TABLE "claim_documents" ADD CONSTRAINT "claim_documents_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_documents_stale_idx" ON "claim_documents" USING btree ("claim_id") WHERE body is null;--> statement-breakpoint
-- Stored claim items (issue 39, src/documents/claims.ts), kept fresh as paper_documents are (drizzle/0034): every
-- change to what a claim's /claims item shows (the claim, its two entities' type, key and name, its paper's brief
-- and licence) sets its body to NULL and bumps its generation in the writing transaction; the refresher writes a
-- body only under the generation it read the rows with. A withdrawn paper's claims go with their rows by ON DELETE
-- CASCADE, and so do their documents.
CREATE FUNCTION geroscope_claim_documents_stale(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- As geroscope_documents_stale: rows locked in key order; a row this transaction already made stale is left.
  UPDATE claim_documents d SET body = NULL, generation = d.generation + 1
    WHERE d.claim_id = ANY (ids) AND NOT (d.body IS NULL AND d.xmin = pg_current_xact_id()::xid);
END $$;
--> statement-breakpoint
CREATE FUNCTION geroscope_claim_documents_claims() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO claim_documents (claim_id) SELECT n.id FROM new_rows n ORDER BY n.id
      ON CONFLICT (claim_id) DO UPDATE SET body = NULL, generation = claim_documents.generation + 1;
    RETURN NULL;
  END IF;
  -- An entity deleted sets its claims' sides to NULL through the foreign key: an update, seen here.
  SELECT array_agg(n.id ORDER BY n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.paper_id, n.subject_text, n.subject_entity_id, n.relation, n.object_text, n.object_entity_id, n.organism,
           n.context, n.direction, n.magnitude, n.evidence, n.confidence, n.created_at)
      IS DISTINCT FROM
          (o.paper_id, o.subject_text, o.subject_entity_id, o.relation, o.object_text, o.object_entity_id, o.organism,
           o.context, o.direction, o.magnitude, o.evidence, o.confidence, o.created_at);
  IF ids IS NOT NULL THEN PERFORM geroscope_claim_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A claim item shows its sides' entities' type, key and name (the minutely paper_count refresh marks nothing).
CREATE FUNCTION geroscope_claim_documents_entities() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE renamed integer[]; ids integer[];
BEGIN
  SELECT array_agg(n.id) INTO renamed FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.type, n.key, n.name) IS DISTINCT FROM (o.type, o.key, o.name);
  IF renamed IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(DISTINCT c) INTO ids FROM (
    SELECT c.id AS c FROM claims c WHERE c.subject_entity_id = ANY (renamed)
    UNION SELECT c.id FROM claims c WHERE c.object_entity_id = ANY (renamed)) marked;
  IF ids IS NOT NULL THEN PERFORM geroscope_claim_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The paper in brief (id, title, doi, journal, published_date, preprint, url) and the licence the evidence follows.
CREATE FUNCTION geroscope_claim_documents_papers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changed text[]; ids integer[];
BEGIN
  SELECT array_agg(n.id) INTO changed FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.title, n.doi, n.journal, n.published_date, n.preprint, n.url, n.abstract_license)
      IS DISTINCT FROM (o.title, o.doi, o.journal, o.published_date, o.preprint, o.url, o.abstract_license);
  IF changed IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(c.id ORDER BY c.id) INTO ids FROM claims c WHERE c.paper_id = ANY (changed);
  IF ids IS NOT NULL THEN PERFORM geroscope_claim_documents_stale(ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every claim document goes stale.
CREATE FUNCTION geroscope_claim_documents_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE claim_documents SET body = NULL, generation = generation + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER claims_claim_documents_insert AFTER INSERT ON claims REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_claim_documents_claims();
--> statement-breakpoint
CREATE TRIGGER claims_claim_documents_update AFTER UPDATE ON claims REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_claim_documents_claims();
--> statement-breakpoint
CREATE TRIGGER entities_claim_documents_update AFTER UPDATE ON entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_claim_documents_entities();
--> statement-breakpoint
CREATE TRIGGER entities_claim_documents_truncate AFTER TRUNCATE ON entities FOR EACH STATEMENT EXECUTE FUNCTION geroscope_claim_documents_truncated();
--> statement-breakpoint
CREATE TRIGGER papers_claim_documents_update AFTER UPDATE ON papers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_claim_documents_papers();
--> statement-breakpoint
-- ALWAYS: the bulk loader runs with session_replication_role = replica (src/seed/bulk-load.ts), which silences ordinary triggers.
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_claim_documents_insert;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_claim_documents_update;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_claim_documents_update;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_claim_documents_truncate;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_claim_documents_update;
--> statement-breakpoint
-- Every claim already held gets its (stale) row; the refresher or `cli documents rebuild` writes the bodies.
INSERT INTO claim_documents (claim_id) SELECT id FROM claims ORDER BY id;
