/** Papers that name entities by different names, for the synonym tests of both search backends. */
export const SYNONYM_PAPERS = [
  {
    id: 'MED-901',
    title: 'CDKN2A expression rises in ageing fibroblasts',
    abstract: 'Senescent fibroblasts accumulate with age.',
    relevance: 2.0,
  },
  {
    id: 'MED-902',
    title: 'Senescent cells in the kidney',
    abstract: 'Cells expressing p16INK4a accumulated in the kidney of old mice.',
    relevance: 2.9,
  },
  {
    id: 'MED-903',
    title: 'Markers of cellular senescence',
    abstract: 'We measured p16 and other markers in skin.',
    relevance: 2.5,
  },
  {
    id: 'MED-904',
    title: 'Sirolimus lifespan extension in male mice',
    abstract: 'Treatment began at 20 months.',
    relevance: 2.4,
  },
  {
    id: 'MED-905',
    title: 'mTOR inhibition in the ageing liver',
    abstract: 'Rapamycin extended lifespan and lowered liver fat.',
    relevance: 2.6,
  },
  {
    id: 'MED-906',
    title: 'Nicotinamide riboside raises NAD+ in muscle',
    abstract: 'Supplementation for eight weeks.',
    relevance: 2.2,
  },
  { id: 'MED-907', title: 'NAD+ precursors in old mice', abstract: 'NR raised muscle NAD+ levels.', relevance: 2.1 },
  {
    id: 'MED-908',
    title: 'NRF2 signalling in oxidative stress',
    abstract: 'Antioxidant responses decline with age.',
    relevance: 2.3,
  },
  {
    id: 'MED-909',
    title: 'SIRT1 activity in the hypothalamus',
    abstract: 'Deacetylase activity fell with age.',
    relevance: 2.0,
  },
  {
    id: 'MED-910',
    title: 'Temsirolimus in renal cancer',
    abstract: 'An mTOR inhibitor used in carcinoma.',
    relevance: 2.0,
  },
]
