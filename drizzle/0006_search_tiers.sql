-- The "tight" form of a query, for the search tiers (src/search/tiers.ts): its positive parts
-- joined with <-> (followed by), so "rapamycin mice" becomes 'rapamycin' <-> 'mice' and only text
-- holding the words side by side, in that order, matches. -exclusions stay as they are. A query of
-- one positive part (a word, or a quoted phrase, which is already exact) or with OR is its own
-- tight form. websearch_to_tsquery writes a query without OR as parts joined by " & ", none of
-- which contains " & " itself (a quoted phrase is joined by <->, an exclusion is !part), and
-- lexemes hold no spaces, so splitting the text there is safe.
CREATE FUNCTION geroscope_tsquery_tight(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (
    SELECT CASE WHEN position('|' in geroscope_tsquery(input)::text) > 0 OR count(*) FILTER (WHERE NOT excluded) < 2
      THEN geroscope_tsquery(input)
      ELSE (string_agg(part, ' <-> ' ORDER BY n) FILTER (WHERE NOT excluded)
        || coalesce(' & ' || string_agg(part, ' & ' ORDER BY n) FILTER (WHERE excluded), ''))::tsquery END
    FROM regexp_split_to_table(geroscope_tsquery(input)::text, ' & ') WITH ORDINALITY AS parts(part, n),
      LATERAL (SELECT part LIKE '!%' AS excluded) AS kind
  );
--> statement-breakpoint
-- A query restricted to the title part of search_vector (weight A): search_vector @@ it exactly when
-- title_vector @@ the query (same lexemes and positions), but search_vector sits in the row while a
-- title_vector read from the row is a TOAST fetch, several times dearer.
CREATE FUNCTION geroscope_tsquery_in_title(query tsquery) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace(query::text, '(''(?:[^'']|'''')*'')', '\1:A', 'g')::tsquery;
--> statement-breakpoint
-- Any one of the query's words (those not excluded), for "the title holds some of the query":
-- 'rapamycin' | 'mice' for "rapamycin mice". A query with OR is its own.
CREATE FUNCTION geroscope_tsquery_any(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN position('|' in geroscope_tsquery(input)::text) > 0 THEN geroscope_tsquery(input)
    ELSE coalesce((
      SELECT string_agg(word[1], ' | ' ORDER BY n, m)
      FROM regexp_split_to_table(geroscope_tsquery(input)::text, ' & ') WITH ORDINALITY AS parts(part, n),
        regexp_matches(part, '(''(?:[^'']|'''')*'')', 'g') WITH ORDINALITY AS words(word, m)
      WHERE part NOT LIKE '!%'), '')::tsquery END;
