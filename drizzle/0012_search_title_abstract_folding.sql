-- Search matches over title and abstract only, and folds what people mean: irregular plurals
-- (mouse and mice), British and American spellings (tumour and tumor, haem and heme, randomised and
-- randomized), names joined by a slash (NADH/NAD+).
--
-- The folding is done on the query, not on the documents: each query is also read in its American,
-- British and Oxford (British, with -ize) spellings and with its irregular plurals swapped, and the
-- readings are merged word by word into one tsquery ('mice' becomes 'mice' | 'mous'). Folding the
-- documents instead would cost every paper written a second pass over its text, and PostgreSQL's
-- regular expressions made that pass cost half as much as to_tsvector itself; a query is a few words.
-- Meilisearch is asked the same variants (src/search/meilisearch/query.ts). The rules change letters
-- inside words only, so every variant has the query's structure.

-- A slash between names separates them on both sides: the parser read "NADH/NAD+" or "AMPK/mTOR" as
-- one file path (lexeme 'nadh/nad'), so NAD+ and mTOR did not find them. A semicolon is a word
-- character to websearch_to_tsquery and a separator to the parser, so "AMPK/mTOR" in a query is the
-- phrase 'ampk' <-> 'mtor'.
CREATE OR REPLACE FUNCTION geroscope_search_text(input text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN translate(regexp_replace(coalesce(input, ''), '([[:alnum:]])-([[:digit:]])', '\1\2', 'g'), '/', ';');
--> statement-breakpoint
-- The query as websearch_to_tsquery reads it, before any variant (drizzle/0008_query_minus.sql).
CREATE FUNCTION geroscope_tsquery_parsed(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN websearch_to_tsquery('geroscope'::regconfig,
    regexp_replace(geroscope_search_text(input), '([\x21-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])-', '\1 ', 'g'));
--> statement-breakpoint
-- British spellings as American ones (text already lower case). Each rule names the stems it
-- applies to, so that words which merely hold the letters are left alone (anaerobic, colorectal).
-- Rules that need a regular expression run only when their letters occur: PostgreSQL keeps few
-- compiled expressions per session, and a query is read this way several times per search.
CREATE FUNCTION geroscope_spelling_us(t text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF strpos(t, 'ae') > 0 THEN
    t := regexp_replace(t, '\mhaem(s?)\M', 'heme\1', 'g');
    t := replace(replace(replace(t, 'haem', 'hem'), 'aemi', 'emi'), 'aetiol', 'etiol'); -- haematopoietic; anaemia, leukaemic
    t := regexp_replace(t, '(p|an|gyn|c|f|pal)ae(d|sth|c|sar|o)', '\1e\2', 'g'); -- paediatric, anaesthesia, gynaecology, caecum, caesarean, faeces, palaeo
  END IF;
  IF strpos(t, 'oe') > 0 THEN -- oestrogen, anoestrus, oesophageal, lymphoedema, diarrhoea, dyspnoea, foetal
    t := replace(replace(replace(replace(replace(replace(replace(replace(t, 'oestr', 'estr'), 'oesoph', 'esoph'), 'oedem', 'edem'),
      'rrhoe', 'rrhe'), 'pnoe', 'pne'), 'foet', 'fet'), 'homoeo', 'homeo'), 'coeliac', 'celiac');
  END IF;
  IF strpos(t, 'our') > 0 THEN
    t := regexp_replace(t, '(tum|behavi|col|fav|lab|od|vap|hum|rum|neighb|harb|hon|vig|flav|arm|endeav|rig|ferv|cand|ard|sav|savi|splend|clam|val|parl|demean)our', '\1or', 'g');
  END IF;
  IF strpos(t, 're') > 0 THEN
    t := replace(replace(t, 'centred', 'centered'), 'centring', 'centering');
    t := regexp_replace(t, '(cent|fib|lit|met|theat|calib|spect|sab|lust|somb|meag|scept|goit)re(s?)\M', '\1er\2', 'g');
  END IF;
  IF strpos(t, 'programme') > 0 THEN
    t := regexp_replace(t, '\mprogramme(s?)\M', 'program\1', 'g');
  END IF;
  t := replace(replace(replace(replace(replace(replace(t, 'defence', 'defense'), 'licence', 'license'), 'offence', 'offense'),
    'pretence', 'pretense'), 'practis', 'practic'), 'logue', 'log'); -- analogue, homologue, orthologue
  t := replace(replace(replace(replace(replace(replace(t, 'ageing', 'aging'), 'aluminium', 'aluminum'), 'sulph', 'sulf'),
    'leuco', 'leuko'), 'grey', 'gray'), 'mould', 'mold');
  IF strpos(t, 'll') > 0 THEN -- labelled, modelling, signalling
    t := replace(replace(replace(replace(replace(replace(replace(replace(replace(t, 'labell', 'label'), 'modell', 'model'),
      'signall', 'signal'), 'travell', 'travel'), 'fuell', 'fuel'), 'counsell', 'counsel'), 'channell', 'channel'),
      'levell', 'level'), 'cancelled', 'canceled');
  END IF;
  RETURN t;
END $$;
--> statement-breakpoint
-- American spellings as British ones: the same pairs the other way. A variant that no paper holds
-- (a word that only looks American) is a harmless alternative.
CREATE FUNCTION geroscope_spelling_uk(t text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF strpos(t, 'hem') > 0 THEN
    t := regexp_replace(t, '\mheme(s?)\M', 'haem\1', 'g');
    t := regexp_replace(t, '(\m|oxy|deoxy|met|carboxy|glyco)hem(o|a)', '\1haem\2', 'g'); -- hemoglobin, hematopoietic
  END IF;
  IF strpos(t, 'emi') > 0 THEN
    t := regexp_replace(t, '(an|leuk|isch|glyc|lip|ur|septic|bacter|vir|hypox|calc|kal|natr|uric|acid|tox|thalass|polycyth|insulin|cholesterol|lipid)emi(a|c)', '\1aemi\2', 'g');
  END IF;
  IF strpos(t, 'ped') > 0 THEN
    t := regexp_replace(t, '(\m|ortho|encyclo)ped(iatr|odont|ophil|ic|ia)', '\1paed\2', 'g');
  END IF;
  IF strpos(t, 'cec') > 0 OR strpos(t, 'fec') > 0 THEN
    t := regexp_replace(t, '\m(c|f)ec(um|al|es)\M', '\1aec\2', 'g'); -- cecum, feces
  END IF;
  IF strpos(t, 'esoph') > 0 OR strpos(t, 'etiol') > 0 THEN
    t := regexp_replace(t, '(\m|gastro)(esoph|etiol)', '\1o\2', 'g'); -- esophagus, gastroesophageal, etiology
    t := replace(t, 'oetiol', 'aetiol');
  END IF;
  IF strpos(t, 'estr') > 0 OR strpos(t, 'edem') > 0 THEN
    t := regexp_replace(t, '\m(an|di|pro|met|phyto|xeno|lymph|myx)?(estr|edem)(o|a|u)', '\1o\2\3', 'g'); -- estrogen, anestrus, edema
  END IF;
  IF strpos(t, 'fet') > 0 THEN
    t := regexp_replace(t, '\mfet(al|us|uses|id)\M', 'foet\1', 'g');
  END IF;
  t := replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(t,
    'anesth', 'anaesth'), 'cesar', 'caesar'), 'gynec', 'gynaec'), 'paleo', 'palaeo'), 'celiac', 'coeliac'), 'homeo', 'homoeo'),
    'rrhea', 'rrhoea'), 'pnea', 'pnoea'), 'pneic', 'pnoeic'), 'aluminum', 'aluminium'), 'sulf', 'sulph'), 'leuko', 'leuco'),
    'gray', 'grey');
  IF strpos(t, 'or') > 0 THEN
    t := regexp_replace(t, '(tum|behavi|neighb|harb|flav|od|vap|vig|endeav|rum|splend|demean|sav|savi|fav)or', '\1our', 'g');
    t := regexp_replace(t, '\m(col|lab|hum|hon|rig|val|ard|cand|arm|clam|ferv|parl)or(s|ed|ing|ful|less|able)?\M', '\1our\2', 'g');
  END IF;
  IF strpos(t, 'er') > 0 THEN
    t := replace(replace(replace(replace(t, 'centered', 'centred'), 'centering', 'centring'), 'center', 'centre'), 'fiber', 'fibre');
    t := regexp_replace(t, '\m((?:milli|centi|micro|nano|kilo|deci)?(?:met|lit)|theat|calib|lust|somb|meag|scept|goit|sab|spect)er(s?)\M', '\1re\2', 'g');
  END IF;
  IF strpos(t, 'se') > 0 THEN
    t := replace(replace(replace(replace(t, 'defense', 'defence'), 'license', 'licence'), 'offense', 'offence'), 'pretense', 'pretence');
  END IF;
  IF strpos(t, 'log') > 0 OR strpos(t, 'program') > 0 THEN
    t := regexp_replace(t, '\m(program|analog|catalog|dialog|homolog|ortholog|paralog|epilog|prolog|monolog)(s?)\M', '\1#\2', 'g');
    t := replace(replace(t, 'program#', 'programme'), 'log#', 'logue');
  END IF;
  IF strpos(t, 'aging') > 0 OR strpos(t, 'mold') > 0 THEN
    t := regexp_replace(regexp_replace(t, '\m(anti)?aging', '\1ageing', 'g'), '\m(s?)mold', '\1mould', 'g');
  END IF;
  IF strpos(t, 'l') > 0 THEN -- labeled, modeling, signaling
    t := regexp_replace(t, '(label|model|signal|travel|cancel|fuel|counsel|channel|tunnel|level|total|dial|funnel|panel)(ed|ing|ings|er|ers)\M', '\1l\2', 'g');
  END IF;
  RETURN t;
END $$;
--> statement-breakpoint
-- British -ise and -yse as -ize and -yze. Only after the endings of -ize verbs (random-ise,
-- character-ise, recogn-ise, util-ise...), so that rise, exercise, supervise, excise, precise and
-- promise keep their spelling (excised must still find excision).
CREATE FUNCTION geroscope_ize(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN CASE WHEN strpos(t, 'is') = 0 AND strpos(t, 'lys') = 0 THEN t ELSE regexp_replace(regexp_replace(t,
    '\m([a-z]*[a-z](al|il|ol|ul|ar|er|or|ur|at|it|et|ot|om|on|en|an|un|in|ic|ac|im|id|od|rd|gn|rg|og|th|sh|as|es|iv|pt|rn|ll|el))is(e|ed|es|er|ers|ing|ings|able|ation|ations|ational|ationally)\M',
    '\1iz\3', 'g'),
    'lys(e|ed|es|er|ers|ing)\M', 'lyz\1', 'g') END;
--> statement-breakpoint
-- -ize and -yze as -ise and -yse (size becomes sise: an alternative no paper holds, so harmless).
CREATE FUNCTION geroscope_ise(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN CASE WHEN strpos(t, 'iz') = 0 AND strpos(t, 'lyz') = 0 THEN t ELSE regexp_replace(regexp_replace(t,
    '\m([a-z]+)iz(e|ed|es|er|ers|ing|ings|able|ation|ations|ational|ationally)\M', '\1is\2', 'g'),
    'lyz(e|ed|es|er|ers|ing)\M', 'lys\1', 'g') END;
--> statement-breakpoint
-- Irregular plurals the stemmer leaves apart, each way. A few go one way only, because the other way
-- would meet another word: indices stems like indicate, testes like test.
CREATE FUNCTION geroscope_number_swap(t text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  swapped text;
BEGIN
  -- Word by word, so that a word swapped is not swapped back by its partner. (PL/pgSQL keeps the
  -- plan of this statement for the session, with the partners parsed once; an SQL function would
  -- plan it again in every query.)
  SELECT string_agg(coalesce('{
    "mice": "mouse", "mouse": "mice", "lice": "louse", "louse": "lice", "feet": "foot", "foot": "feet",
    "teeth": "tooth", "tooth": "teeth", "geese": "goose", "goose": "geese", "men": "man", "man": "men",
    "women": "woman", "woman": "women", "children": "child", "child": "children", "oxen": "ox", "ox": "oxen",
    "nuclei": "nucleus", "nucleus": "nuclei", "micronuclei": "micronucleus", "micronucleus": "micronuclei",
    "pronuclei": "pronucleus", "pronucleus": "pronuclei", "nucleoli": "nucleolus", "nucleolus": "nucleoli",
    "fungi": "fungus", "fungus": "fungi", "stimuli": "stimulus", "stimulus": "stimuli", "loci": "locus", "locus": "loci",
    "foci": "focus", "focus": "foci", "bacilli": "bacillus", "bacillus": "bacilli", "lactobacilli": "lactobacillus",
    "lactobacillus": "lactobacilli", "bronchi": "bronchus", "bronchus": "bronchi", "thrombi": "thrombus",
    "thrombus": "thrombi", "villi": "villus", "villus": "villi", "microvilli": "microvillus", "microvillus": "microvilli",
    "sulci": "sulcus", "sulcus": "sulci", "emboli": "embolus", "embolus": "emboli", "alveoli": "alveolus",
    "alveolus": "alveoli", "hippocampi": "hippocampus", "hippocampus": "hippocampi", "gyri": "gyrus", "gyrus": "gyri",
    "glomeruli": "glomerulus", "glomerulus": "glomeruli", "calculi": "calculus", "calculus": "calculi",
    "acini": "acinus", "acinus": "acini", "menisci": "meniscus", "meniscus": "menisci", "cocci": "coccus",
    "coccus": "cocci", "streptococci": "streptococcus", "streptococcus": "streptococci", "staphylococci": "staphylococcus",
    "staphylococcus": "staphylococci", "radii": "radius", "radius": "radii",
    "bacteria": "bacterium", "bacterium": "bacteria", "cilia": "cilium", "cilium": "cilia", "flagella": "flagellum",
    "flagellum": "flagella", "septa": "septum", "septum": "septa", "sera": "serum", "serum": "sera",
    "antisera": "antiserum", "antiserum": "antisera", "strata": "stratum", "stratum": "strata", "spectra": "spectrum",
    "spectrum": "spectra", "atria": "atrium", "atrium": "atria", "crania": "cranium", "cranium": "crania",
    "mycelia": "mycelium", "mycelium": "mycelia", "pseudopodia": "pseudopodium", "pseudopodium": "pseudopodia",
    "lamellipodia": "lamellipodium", "lamellipodium": "lamellipodia", "filopodia": "filopodium", "filopodium": "filopodia",
    "epithelia": "epithelium", "epithelium": "epithelia", "endothelia": "endothelium", "endothelium": "endothelia",
    "maxima": "maximum", "maximum": "maxima", "minima": "minimum", "minimum": "minima", "optima": "optimum", "optimum": "optima",
    "mitochondria": "mitochondrion", "mitochondrion": "mitochondria", "criteria": "criterion", "criterion": "criteria",
    "phenomena": "phenomenon", "phenomenon": "phenomena", "ganglia": "ganglion", "ganglion": "ganglia",
    "spermatozoa": "spermatozoon", "spermatozoon": "spermatozoa", "protozoa": "protozoon", "protozoon": "protozoa",
    "taxa": "taxon", "taxon": "taxa", "apices": "apex", "apex": "apices",
    "cortices": "cortex", "cortex": "cortices", "matrices": "matrix", "matrix": "matrices", "appendices": "appendix",
    "appendix": "appendices", "lumina": "lumen", "lumen": "lumina", "foramina": "foramen", "foramen": "foramina",
    "stomata": "stoma", "stoma": "stomata", "phalanges": "phalanx", "phalanx": "phalanges",
    "hypotheses": "hypothesis", "hypothesis": "hypotheses", "syntheses": "synthesis", "synthesis": "syntheses",
    "analyses": "analysis", "analysis": "analyses", "diagnoses": "diagnosis", "diagnosis": "diagnoses",
    "prognoses": "prognosis", "prognosis": "prognoses", "metastases": "metastasis", "metastasis": "metastases",
    "crises": "crisis", "crisis": "crises", "axes": "axis", "axis": "axes", "genera": "genus", "genus": "genera",
    "corpora": "corpus", "corpus": "corpora",
    "indices": "index", "testes": "testis"
  }'::jsonb ->> token[1], token[1]), '' ORDER BY n) INTO swapped
  FROM regexp_matches(t, '([[:alpha:]]+|[^[:alpha:]]+)', 'g') WITH ORDINALITY AS tokens(token, n);
  RETURN coalesce(swapped, t);
END $$;
--> statement-breakpoint
-- The readings a query is searched with: as written, American, British, Oxford (British with -ize)
-- and with its irregular plurals swapped; the same one only once, as written first.
CREATE FUNCTION geroscope_variants(input text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  lowered text := lower(input);
  uk text := geroscope_spelling_uk(lower(input));
  readings text[] := ARRAY[input];
  seen text[] := ARRAY[lower(input)];
  reading text;
BEGIN
  FOREACH reading IN ARRAY ARRAY[geroscope_ize(geroscope_spelling_us(lowered)), geroscope_ise(uk), geroscope_ize(uk),
      geroscope_number_swap(lowered)] LOOP
    IF NOT reading = ANY (seen) THEN
      readings := readings || reading;
      seen := seen || reading;
    END IF;
  END LOOP;
  RETURN readings;
END $$;
--> statement-breakpoint
-- One tsquery from readings of one query: where the readings parse alike (the same operators around
-- the same number of words), each word becomes the OR of its readings' words:
-- 'rapamycin' & 'mice', 'rapamycin' & 'mous' -> 'rapamycin' & ( 'mice' | 'mous' ). A reading that
-- parses otherwise is left out (the first is kept whole).
CREATE FUNCTION geroscope_merge(queries tsquery[]) RETURNS tsquery
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  base text[];    -- the first reading's tokens: quoted words ('it''s' doubles a quote) and operator text
  shape text[];   -- its operator text, '' where a word stands
  words text[];   -- at each word, the alternatives found so far, joined by ' | '
  tokens text[];
  q tsquery;
  merged text := '';
BEGIN
  IF cardinality(queries) < 2 THEN RETURN queries[1]; END IF; -- one reading: most queries
  base := ARRAY(SELECT m[1] FROM regexp_matches(queries[1]::text, '(''(?:[^'']|'''')*''|[^'']+)', 'g') AS m);
  IF cardinality(base) = 0 THEN RETURN queries[1]; END IF;
  shape := ARRAY(SELECT CASE WHEN b LIKE '''%' THEN '' ELSE b END FROM unnest(base) AS b);
  words := base;
  FOREACH q IN ARRAY queries[2:] LOOP
    tokens := ARRAY(SELECT m[1] FROM regexp_matches(q::text, '(''(?:[^'']|'''')*''|[^'']+)', 'g') AS m);
    CONTINUE WHEN ARRAY(SELECT CASE WHEN x LIKE '''%' THEN '' ELSE x END FROM unnest(tokens) AS x) IS DISTINCT FROM shape;
    FOR i IN 1 .. cardinality(tokens) LOOP
      IF shape[i] = '' AND strpos(' | ' || words[i] || ' | ', ' | ' || tokens[i] || ' | ') = 0 THEN
        words[i] := words[i] || ' | ' || tokens[i];
      END IF;
    END LOOP;
  END LOOP;
  FOR i IN 1 .. cardinality(base) LOOP
    merged := merged || CASE WHEN words[i] <> base[i] THEN '( ' || words[i] || ' )' ELSE base[i] END;
  END LOOP;
  RETURN merged::tsquery;
END $$;
--> statement-breakpoint
-- Each reading of a query, parsed.
CREATE FUNCTION geroscope_readings(input text) RETURNS tsquery[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  reading text;
  parsed tsquery[] := '{}';
BEGIN
  FOREACH reading IN ARRAY geroscope_variants(coalesce(input, '')) LOOP
    parsed := parsed || geroscope_tsquery_parsed(reading);
  END LOOP;
  RETURN parsed;
END $$;
--> statement-breakpoint
-- The query language (src/search/tsquery.ts): every reading of the query, merged.
CREATE OR REPLACE FUNCTION geroscope_tsquery(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN geroscope_merge(geroscope_readings(input));
--> statement-breakpoint
-- The tight and "any word" forms of the search tiers (drizzle/0006_search_tiers.sql), now taken of
-- each parsed reading and merged: they read the query's text, where merging adds ORs they would
-- take for the user's.
CREATE FUNCTION geroscope_tsquery_tight_of(query tsquery) RETURNS tsquery
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (
    SELECT CASE WHEN position('|' in query::text) > 0 OR count(*) FILTER (WHERE NOT excluded) < 2
      THEN query
      ELSE (string_agg(part, ' <-> ' ORDER BY n) FILTER (WHERE NOT excluded)
        || coalesce(' & ' || string_agg(part, ' & ' ORDER BY n) FILTER (WHERE excluded), ''))::tsquery END
    FROM regexp_split_to_table(query::text, ' & ') WITH ORDINALITY AS parts(part, n),
      LATERAL (SELECT part LIKE '!%' AS excluded) AS kind
  );
END $$;
--> statement-breakpoint
-- Every form the search tiers use (src/search/tiers.ts), from one reading of the query: the query,
-- its tight form, any one of its words, and the query loosened.
CREATE FUNCTION geroscope_query_forms(input text, OUT query tsquery, OUT tight tsquery, OUT any_word tsquery, OUT loose tsquery)
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  readings tsquery[] := geroscope_readings(input);
  reading tsquery;
  tights tsquery[] := '{}';
  anys tsquery[] := '{}';
BEGIN
  FOREACH reading IN ARRAY readings LOOP
    tights := tights || geroscope_tsquery_tight_of(reading);
    anys := anys || geroscope_tsquery_any_of(reading);
  END LOOP;
  query := geroscope_merge(readings);
  tight := geroscope_merge(tights);
  any_word := geroscope_merge(anys);
  loose := geroscope_tsquery_loose_of(query);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION geroscope_tsquery_tight(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (SELECT tight FROM geroscope_query_forms(input));
--> statement-breakpoint
CREATE FUNCTION geroscope_tsquery_any_of(query tsquery) RETURNS tsquery
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN CASE WHEN position('|' in query::text) > 0 THEN query
    ELSE coalesce((
      SELECT string_agg(word[1], ' | ' ORDER BY n, m)
      FROM regexp_split_to_table(query::text, ' & ') WITH ORDINALITY AS parts(part, n),
        regexp_matches(part, '(''(?:[^'']|'''')*'')', 'g') WITH ORDINALITY AS words(word, m)
      WHERE part NOT LIKE '!%'), '')::tsquery END;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION geroscope_tsquery_any(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (SELECT any_word FROM geroscope_query_forms(input));
--> statement-breakpoint
-- The query with phrases loosened to AND (drizzle/0004), of the merged query (whose exclusions and
-- phrase operators are the query's), read once.
CREATE FUNCTION geroscope_tsquery_loose_of(query tsquery) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN position('!' in query::text) > 0 THEN query
    ELSE regexp_replace(query::text, '<[0-9]*->|<[0-9]+>', '&', 'g')::tsquery END;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION geroscope_tsquery_loose(input text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN geroscope_tsquery_loose_of(geroscope_tsquery(input));
--> statement-breakpoint
--
-- Title and abstract only: both vectors are rebuilt, without keywords and MeSH and with the slash
-- rule above (a generated column does not follow a changed function). Dropping and adding them in
-- one statement rewrites the table once; the storage of drizzle/0004 is set in the same statement,
-- so the rewrite applies it, with lz4 where the server has it.
DO $$
BEGIN
  PERFORM set_config('default_toast_compression', 'lz4', true);
EXCEPTION WHEN invalid_parameter_value OR feature_not_supported THEN
  NULL; -- built without lz4: pglz it is
END $$;
--> statement-breakpoint
ALTER TABLE "papers"
  DROP COLUMN "search_vector",
  DROP COLUMN "title_vector",
  ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(geroscope_tsvector(title), 'A')
    || setweight(geroscope_tsvector(abstract), 'C')) STORED NOT NULL,
  ADD COLUMN "title_vector" "tsvector" GENERATED ALWAYS AS (geroscope_tsvector(title)) STORED NOT NULL,
  ALTER COLUMN "search_vector" SET STORAGE MAIN;
--> statement-breakpoint
DO $$
BEGIN
  ALTER TABLE "papers" ALTER COLUMN "search_vector" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL;
END $$;
--> statement-breakpoint
CREATE INDEX "papers_search_idx" ON "papers" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "papers_title_search_idx" ON "papers" USING gin ("title_vector");
--> statement-breakpoint
CREATE INDEX "papers_relevance_idx" ON "papers" USING btree ("relevance" DESC NULLS LAST, "indexed_date" DESC NULLS FIRST, "id") INCLUDE ("title_vector");
--> statement-breakpoint
ANALYZE "papers";
