-- Search checks search_vector row by row while it walks papers in order of judgement. Kept in the
-- row (storage MAIN: compressed, moved out only as a last resort) it costs a fraction of a TOAST
-- fetch per row; lz4 decompresses faster than pglz where the server has it (PGlite may not).
ALTER TABLE "papers" ALTER COLUMN "search_vector" SET STORAGE MAIN;
--> statement-breakpoint
DO $$
BEGIN
  ALTER TABLE "papers" ALTER COLUMN "search_vector" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL; -- built without lz4: pglz it is
END $$;
--> statement-breakpoint
-- The query with phrases loosened to AND (positions ignored). It selects candidates, whose ranking
-- then applies the exact query: the planner misjudges how common a phrase is, and a misjudged phrase
-- turned a 5 ms index walk into a 2 s bitmap scan over every paper holding both words. Loosening a
-- phrase under NOT would narrow the match instead of widening it, so such queries stay exact.
CREATE FUNCTION geroscope_tsquery_loose(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN position('!' in geroscope_tsquery(input)::text) > 0 THEN geroscope_tsquery(input)
    ELSE regexp_replace(geroscope_tsquery(input)::text, '<[0-9]*->|<[0-9]+>', '&', 'g')::tsquery END;
