CREATE TABLE "change_feed" (
	"resource" text NOT NULL,
	"item_id" text NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"seq" bigserial NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "change_feed_resource_item_id_pk" PRIMARY KEY("resource","item_id")
);
--> statement-breakpoint
CREATE INDEX "change_feed_resource_position_idx" ON "change_feed" USING btree ("resource","txid","seq");--> statement-breakpoint
CREATE INDEX "change_feed_position_idx" ON "change_feed" USING btree ("txid","seq");--> statement-breakpoint
CREATE INDEX "change_feed_changed_idx" ON "change_feed" USING btree ("changed_at");--> statement-breakpoint
-- The change feed's writers. Triggers, so every writer (bulk seed COPY, harvest upserts, analysis,
-- admin, a psql session) is covered without remembering to; statement-level with transition tables,
-- so a COPY of 10,000 papers costs one set-based upsert, not 10,000 trigger calls.
--
-- An item's row moves to the position (txid, seq) of its latest change: the feed is compacted, one
-- row per item, so a mirror reads each changed item once however often it changed, and a new
-- mirror can start from nothing (updated_since far in the past) without a history of every change.
--
-- Derived shapes change too: a /papers item carries its story's headline and dek, a /stories item
-- carries its paper (judgement included) and a /claims item its paper's title, DOI, journal, dates,
-- URL and licence (which decides whether evidence is served) and its entities' names; so a change
-- to one marks the others. Rows are marked in (resource, item_id) order within a statement so two
-- writers marking overlapping sets take the row locks in one order.
-- Marks are upserted through one statement per trigger, in (resource, item_id) order, so two writers
-- marking overlapping sets take the row locks in one order. `deleted` is a hint kept for the purge
-- of old tombstones; readers decide "deleted" by whether the item still exists.
CREATE FUNCTION geroscope_feed_upsert(resources text[], item_ids text[], deleted boolean[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- plpgsql rather than SQL: a SQL function's statement is planned again at every call, plpgsql keeps its plan per session.
  INSERT INTO change_feed (resource, item_id, deleted)
  SELECT m.resource, m.item_id, bool_or(m.deleted)
  FROM unnest(resources, item_ids, deleted) AS m(resource, item_id, deleted)
  GROUP BY m.resource, m.item_id
  ORDER BY m.resource, m.item_id
  ON CONFLICT (resource, item_id) DO UPDATE
    SET txid = excluded.txid, seq = excluded.seq, changed_at = excluded.changed_at, deleted = excluded.deleted;
END $$;
--> statement-breakpoint
CREATE FUNCTION geroscope_feed_papers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE rs text[]; ids text[]; ds boolean[]; changed text[]; claim_paper_changed text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg('paper'::text), array_agg(n.id), array_agg(false) INTO rs, ids, ds FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    -- The paper's story and claims go by ON DELETE CASCADE, whose deletes fire their own triggers.
    SELECT array_agg('paper'::text), array_agg(o.id), array_agg(true) INTO rs, ids, ds FROM old_rows o;
  ELSE
    -- Only what the API serves: a harvest re-fetch that changes nothing served (or only MeSH,
    -- keywords, updated_at) is not a change. extracted_at counts (re-extraction).
    SELECT array_agg(n.id),
        array_agg(n.id) FILTER (WHERE (n.title, n.doi, n.journal, n.published_date, n.preprint, n.url, n.abstract_license)
          IS DISTINCT FROM (o.title, o.doi, o.journal, o.published_date, o.preprint, o.url, o.abstract_license))
      INTO changed, claim_paper_changed
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.source, n.doi, n.title, n.authors, n.journal, n.published_date, n.indexed_date, n.preprint, n.publication_types,
             n.url, n.abstract, n.abstract_license, n.relevance, n.relevance_confidence, n.newsworthiness, n.study_type,
             n.study_type_confidence, n.topic, n.topic_confidence, n.promotional, n.judgement_model, n.judgement_prompt_version,
             n.judged_at, n.extracted_at)
        IS DISTINCT FROM
            (o.source, o.doi, o.title, o.authors, o.journal, o.published_date, o.indexed_date, o.preprint, o.publication_types,
             o.url, o.abstract, o.abstract_license, o.relevance, o.relevance_confidence, o.newsworthiness, o.study_type,
             o.study_type_confidence, o.topic, o.topic_confidence, o.promotional, o.judgement_model, o.judgement_prompt_version,
             o.judged_at, o.extracted_at);
    IF changed IS NULL THEN RETURN NULL; END IF;
    -- The ids as arrays, not joins on the transition tables: those have no statistics, and a join
    -- planned for a guessed 1,000 rows would scan all of stories and claims for a one-paper update.
    SELECT array_agg(r), array_agg(i), array_agg(d) INTO rs, ids, ds FROM (
      SELECT 'paper'::text AS r, c AS i, false AS d FROM unnest(changed) c
      UNION ALL
      -- a story item carries its paper (every field but the story)
      SELECT 'story'::text, s.paper_id, false FROM stories s WHERE s.paper_id = ANY (changed)
      UNION ALL
      -- a claim item carries its paper in brief, and the licence decides whether evidence is served
      SELECT 'claim'::text, cl.id::text, false FROM claims cl WHERE cl.paper_id = ANY (claim_paper_changed)
    ) marked;
  END IF;
  IF ids IS NOT NULL THEN PERFORM geroscope_feed_upsert(rs, ids, ds); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION geroscope_feed_stories() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE rs text[]; ids text[]; ds boolean[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(r), array_agg(i), array_agg(d) INTO rs, ids, ds FROM (
      SELECT 'story'::text AS r, n.paper_id AS i, false AS d FROM new_rows n
      UNION ALL -- a /papers item carries its story's headline and dek
      SELECT 'paper'::text AS r, n.paper_id AS i, false AS d FROM new_rows n
    ) marked;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(r), array_agg(i), array_agg(d) INTO rs, ids, ds FROM (
      SELECT 'story'::text AS r, o.paper_id AS i, true AS d FROM old_rows o
      UNION ALL -- the paper loses its story summary (or is being deleted itself: then its own mark says so)
      -- (an array look-up, not a join on the transition table: see geroscope_feed_papers)
      SELECT 'paper'::text AS r, o.paper_id AS i, NOT (o.paper_id = ANY (ARRAY(SELECT p.id FROM papers p
          WHERE p.id = ANY (ARRAY(SELECT paper_id FROM old_rows))))) AS d
        FROM old_rows o
    ) marked;
  ELSE
    SELECT array_agg(r), array_agg(i), array_agg(d) INTO rs, ids, ds FROM (
      SELECT 'story'::text AS r, n.paper_id AS i, false AS d
        FROM new_rows n JOIN old_rows o ON o.paper_id = n.paper_id WHERE n IS DISTINCT FROM o
      UNION ALL
      SELECT 'paper'::text AS r, n.paper_id AS i, false AS d
        FROM new_rows n JOIN old_rows o ON o.paper_id = n.paper_id WHERE (n.headline, n.dek) IS DISTINCT FROM (o.headline, o.dek)
    ) marked;
  END IF;
  IF ids IS NOT NULL THEN PERFORM geroscope_feed_upsert(rs, ids, ds); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION geroscope_feed_claims() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE rs text[]; ids text[]; ds boolean[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg('claim'::text), array_agg(n.id::text), array_agg(false) INTO rs, ids, ds FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    -- Re-extraction deletes a paper's claims and inserts new ones (new ids): the old become tombstones.
    SELECT array_agg('claim'::text), array_agg(o.id::text), array_agg(true) INTO rs, ids, ds FROM old_rows o;
  ELSE
    SELECT array_agg('claim'::text), array_agg(n.id::text), array_agg(false) INTO rs, ids, ds
      FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n IS DISTINCT FROM o;
  END IF;
  IF ids IS NOT NULL THEN PERFORM geroscope_feed_upsert(rs, ids, ds); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A claim item shows its entities' type, key and name; the minutely paper_count refresh changes
-- none of them and marks nothing. (A deleted entity sets the claims' entity ids to null: an
-- UPDATE of claims, marked above.)
CREATE FUNCTION geroscope_feed_entities() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE rs text[]; ids text[]; ds boolean[]; renamed integer[];
BEGIN
  SELECT array_agg(n.id) INTO renamed FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.type, n.key, n.name) IS DISTINCT FROM (o.type, o.key, o.name);
  IF renamed IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg('claim'::text), array_agg(c.id::text), array_agg(false) INTO rs, ids, ds
    FROM claims c WHERE c.subject_entity_id = ANY (renamed) OR c.object_entity_id = ANY (renamed);
  IF ids IS NOT NULL THEN PERFORM geroscope_feed_upsert(rs, ids, ds); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every item of the table becomes a tombstone at once.
CREATE FUNCTION geroscope_feed_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE change_feed SET txid = pg_current_xact_id(), seq = nextval('change_feed_seq_seq'), changed_at = now(), deleted = true
    WHERE resource = TG_ARGV[0] AND NOT deleted;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER papers_feed_insert AFTER INSERT ON papers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_papers();
--> statement-breakpoint
CREATE TRIGGER papers_feed_update AFTER UPDATE ON papers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_papers();
--> statement-breakpoint
CREATE TRIGGER papers_feed_delete AFTER DELETE ON papers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_papers();
--> statement-breakpoint
CREATE TRIGGER papers_feed_truncate AFTER TRUNCATE ON papers FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_truncated('paper');
--> statement-breakpoint
CREATE TRIGGER stories_feed_insert AFTER INSERT ON stories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_stories();
--> statement-breakpoint
CREATE TRIGGER stories_feed_update AFTER UPDATE ON stories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_stories();
--> statement-breakpoint
CREATE TRIGGER stories_feed_delete AFTER DELETE ON stories REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_stories();
--> statement-breakpoint
CREATE TRIGGER stories_feed_truncate AFTER TRUNCATE ON stories FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_truncated('story');
--> statement-breakpoint
CREATE TRIGGER claims_feed_insert AFTER INSERT ON claims REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_claims();
--> statement-breakpoint
CREATE TRIGGER claims_feed_update AFTER UPDATE ON claims REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_claims();
--> statement-breakpoint
CREATE TRIGGER claims_feed_delete AFTER DELETE ON claims REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_claims();
--> statement-breakpoint
CREATE TRIGGER claims_feed_truncate AFTER TRUNCATE ON claims FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_truncated('claim');
--> statement-breakpoint
CREATE TRIGGER entities_feed_update AFTER UPDATE ON entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION geroscope_feed_entities();
--> statement-breakpoint
-- Papers, stories and claims that exist before this migration enter the feed at its position, so
-- a mirror starting from nothing gets them all.
INSERT INTO change_feed (resource, item_id) SELECT 'paper', id FROM papers ORDER BY id;
--> statement-breakpoint
INSERT INTO change_feed (resource, item_id) SELECT 'story', paper_id FROM stories ORDER BY paper_id;
--> statement-breakpoint
INSERT INTO change_feed (resource, item_id) SELECT 'claim', id::text FROM claims ORDER BY id;

--> statement-breakpoint
-- ALWAYS: the bulk loader skips foreign-key checks with session_replication_role = replica (src/seed/bulk-load.ts,
-- canSkipTriggers), which would silence ordinary triggers; the feed must hear its writes too.
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_feed_insert;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_feed_update;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_feed_delete;
--> statement-breakpoint
ALTER TABLE papers ENABLE ALWAYS TRIGGER papers_feed_truncate;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_feed_insert;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_feed_update;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_feed_delete;
--> statement-breakpoint
ALTER TABLE stories ENABLE ALWAYS TRIGGER stories_feed_truncate;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_feed_insert;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_feed_update;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_feed_delete;
--> statement-breakpoint
ALTER TABLE claims ENABLE ALWAYS TRIGGER claims_feed_truncate;
--> statement-breakpoint
ALTER TABLE entities ENABLE ALWAYS TRIGGER entities_feed_update;
