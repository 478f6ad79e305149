-- A minus excludes a word only where a word can start: at the start of the query or after
-- whitespace ("senolytic -cocktail"). websearch_to_tsquery also reads a minus after punctuation as
-- NOT, so "senolytic<->cocktail" silently became 'senolyt' & !'cocktail'; such a minus (after ASCII
-- punctuation other than a minus) now separates words instead. A minus after a letter or digit is
-- inside a word (anti-aging) and stays. Only queries change: documents still go through
-- geroscope_search_text alone, so no stored vector is touched. src/search/websearch.ts reads queries
-- the same way for Meilisearch.
CREATE OR REPLACE FUNCTION geroscope_tsquery(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN websearch_to_tsquery('geroscope'::regconfig,
    regexp_replace(geroscope_search_text(input), '([\x21-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])-', '\1 ', 'g'));
