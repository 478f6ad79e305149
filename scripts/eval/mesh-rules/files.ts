/** The recorded Europe PMC responses the MeSH-rule consistency set is drawn from (kept for independent checks). */
export const CONSISTENCY_FILES = [
  'europepmc/search_cancer_core.json',
  'europepmc/search_core_openaccess_cited_range.json',
  'europepmc-agpl/search_core_autophagy_p100.json',
  'europepmc-agpl/search_core_epigenetics_p100.json',
]
