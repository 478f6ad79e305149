-- Full-text search set-up shared by PostgreSQL and PGlite (hand-written: drizzle-kit cannot express it).
-- unaccent folds diacritics (café = cafe); pg_trgm serves the substring filters of /claims and /entities.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- English stemming (senolytic = senolytics) after unaccent.
CREATE TEXT SEARCH CONFIGURATION geroscope (COPY = pg_catalog.english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION geroscope ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint
-- Biomedical names write a hyphen before a number or not (GLP-1 and GLP1, IL-6 and IL6): join them,
-- on documents and queries alike, so both spellings meet. The English parser would otherwise read
-- "-1" as a signed number.
CREATE FUNCTION geroscope_search_text(input text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace(coalesce(input, ''), '([[:alnum:]])-([[:digit:]])', '\1\2', 'g');
--> statement-breakpoint
CREATE FUNCTION geroscope_tsvector(input text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_tsvector('geroscope'::regconfig, geroscope_search_text(input));
--> statement-breakpoint
-- Our query syntax (quoted phrases, OR, -exclusions) is websearch_to_tsquery's; it never fails on bad syntax.
CREATE FUNCTION geroscope_tsquery(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN websearch_to_tsquery('geroscope'::regconfig, geroscope_search_text(input));
--> statement-breakpoint
-- array_to_string is only STABLE because of arbitrary element types; for text[] it is immutable,
-- which a generated column needs.
CREATE FUNCTION geroscope_join(items text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN array_to_string(items, ' ');
