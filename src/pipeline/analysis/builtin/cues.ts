/**
 * The words an editor reads as signs of what a paper is about (docs/judgement-guidelines.md).
 * Each list is a regular expression over plain text, case-insensitive unless said otherwise. Where a word is
 * ambiguous the pattern carries its context: "aged mice" is an ageing model, "aged 65 years" a sampling frame.
 */

/**
 * Ageing itself as a subject: the words of geroscience. Every alternative starts at a word boundary; saying so once
 * in front (`\b(?:...)`) matches the same text and lets the engine skip the positions inside words, where it
 * otherwise tried each alternative (and the lifespan alternative's lookbehind) in turn: 2.5 times faster.
 */
const AGEING_WORDS = [
  String.raw`\b(?:aging|ageing)\b(?![- ](?:population|society|societies|men|women|adults|people|persons|individuals` +
    `|patients|subjects|cohorts?|primary care))`,
  String.raw`\banti-?(?:aging|ageing)\b`,
  // "Across the lifespan" is development and the whole life course, not ageing (a spina bifida review, a brain
  // atlas).
  String.raw`(?<!\b(?:across|throughout|over|through) (?:the |their |a )?)\b(?:life[- ]?span|longevity` +
    String.raw`|health[- ]?span|long-lived|short-lived)\b`,
  // Frailty and sarcopenia are geriatric medicine (GERIATRIC below), not signs of ageing biology by themselves.
  String.raw`\b(?:leukocyte |leucocyte )?telomere length\b`,
  String.raw`\b(?:geroscien\w*|geroprotect\w*|gerontolog\w*|rejuvenat\w*|progeri\w*|progeroid|centenarians?` +
    String.raw`|supercentenarians?)\b`,
  // A "biological clock" is circadian; a biological age is ageing.
  String.raw`\b(?:epigenetic|methylation|DNAm|transcriptomic|proteomic)[- ](?:age|ages|aging|ageing|clocks?` +
    String.raw`|drift)\b|\bbiological[- ](?:age|ages|aging|ageing)\b`,
  String.raw`\b(?:GrimAge|PhenoAge|DunedinPACE|Horvath clock|Hannum clock)\b`,
  String.raw`\binflamm-?(?:aging|ageing)\b|\bimmunosenescen\w*|\bimmuno-?(?:aging|ageing)\b`,
  String.raw`\b(?:aged|old|older|elderly|senescent|geriatric|middle-aged)\s+(?:\w+\s+)?(?:mice|mouse|rats?|animals` +
    String.raw`|monkeys|macaques|primates|dogs|flies|worms|C57BL\S*(?:\s+mice)?)\b`,
  String.raw`\b(?:1[89]|2\d|3\d)-month-old\b`,
  String.raw`\b(?:young|younger)\s+(?:and|versus|vs\.?|or|compared with)\s+(?:old|older|aged|elderly)\b`,
  String.raw`\b(?:old|older|aged|elderly)\s+(?:and|versus|vs\.?|or|compared with)\s+(?:young|younger)\b`,
  String.raw`\bage[- ](?:related|associated|dependent|induced)\s+(?:decline|loss|changes?|impairments?|deficits?` +
    `|dysfunction|deterioration|alterations?|increases?|decreases?|reductions?|accumulation|diseases` +
    `|disorders|pathologies|conditions|phenotypes?|frailty|sarcopenia|neurodegeneration|cognitive|memory` +
    String.raw`|muscle|bone loss|obesity|weight gain|hearing loss|atrophy|inflammation|immune|in\b)`,
  String.raw`\b(?:with|of) (?:advancing|increasing|advanced|old|older) age\b|\bold age\b|\bchanges? with age\b` +
    String.raw`|\bincreas\w* with age\b|\bdeclin\w* with age\b`,
  String.raw`\b(?:healthy|successful|cognitive|brain|reproductive|ovarian|skin|vascular|immune|muscle|cellular` +
    String.raw`|biological|premature|accelerated)\s+(?:aging|ageing)\b`,
  String.raw`\bhallmarks? of (?:aging|ageing)\b|\bmenopause and andropause\b|\bandropause\b|\bsomatopause\b`,
]
export const AGEING = new RegExp(String.raw`\b(?:${AGEING_WORDS.join('|')})`, 'gi')

/** Cellular senescence: ageing biology, except where it is a tumour-suppressive response in cancer cells. */
export const SENESCENCE = /\b(?:senescen\w*|senolytic\w*|senomorphic\w*|senotherap\w*|SASP)\b/gi

/** Ageing as an explanatory variable, a comparison of ages: "Does age moderate...". */
export const AGE_VARIABLE = new RegExp(
  String.raw`\b(?:effects? of age|age (?:differences?|groups?|effects?|moderat\w*)|as a function of age` +
    String.raw`|age and sex|older and younger|younger and older)\b`,
  'gi',
)

/**
 * Words that say the people sampled were old: never a sign of ageing biology alone, but where cognition is the
 * outcome in such people, the question is cognitive ageing. An age says "old" from 60 ("aged 45" does not); a
 * menopausal status is a life stage and "age-matched" a design word: neither says the people were old.
 */
export const SAMPLING_FRAME = new RegExp(
  String.raw`\b(?:elderly|older (?:adults?|people|persons?|patients?|women|men|individuals|subjects` +
    String.raw`|participants|population|veterans)|aged (?:[6-9]\d|1[01]\d)\b|(?:[6-9]\d|1[01]\d) (?:years?` +
    '|yrs?) (?:of age|old|and older|or older)|geriatric|nursing[- ]homes?|seniors?|octogenarians?' +
    String.raw`|nonagenarians?|late[- ]life|aging (?:population|society))\b`,
  'gi',
)

/** Neurodegenerative disease and cognitive decline (guidelines: tangential (a) without an ageing frame). */
export const NEURODEGENERATION = new RegExp(
  String.raw`\b(?:alzheimer\w*|parkinson\w*|huntington\w*|amyotrophic lateral sclerosis|neurodegenerat\w*` +
    String.raw`|dementias?|frontotemporal|lewy bod\w*|tauopath\w*|synucleinopath\w*|mild cognitive impairment` +
    '|cognitive decline|motor neuron disease|amyloid[- ](?:beta|plaques?|precursor)|beta-amyloid' +
    '|tau (?:protein|phosphorylation|pathology)|hyperphosphorylated tau' +
    String.raw`|purkinje (?:cell )?degeneration)\b|\bAβ|\bamyloid[- ]β|(?<![\w-])β-amyloid`,
  'gi',
)

/** A neurodegenerative disease that defines who was studied ("residents meeting criteria for dementia"). */
export const NEURO_POPULATION = new RegExp(
  String.raw`\b(?:patients|participants|residents|people|individuals|subjects|persons|women|men|adults` +
    String.raw`|outpatients|inpatients|cases)\s+(?:\w+\s+){0,2}?(?:with|meeting (?:[\w-]+\s+){0,3}criteria for` +
    String.raw`|diagnosed with|suffering from)\s+(?:\w+\s+){0,2}?(?:alzheimer|parkinson|huntington|dementia` +
    '|mild cognitive impairment|amyotrophic lateral sclerosis|frontotemporal|lewy bod)',
  'i',
)

/** Their acronyms, matched in their own case only ("ad libitum" is not Alzheimer's disease). */
export const NEURO_ACRONYMS = /\b(?:AD|PD|ALS|MCI|FTD|FTLD|DLB|HD)\b/g

/** The canonical processes of geroscience (guidelines: tangential (b) as the main subject outside ageing). */
export const PROCESS = new RegExp(
  String.raw`\b(?:m?TOR(?:C[12])?|mechanistic target of rapamycin|mammalian target of rapamycin` +
    '|target of rapamycin|rapamycin|sirolimus|rapalogs?|everolimus|temsirolimus|TSC[12]?' +
    '|tuberous sclerosis complex(?: [12])?|tuberin|hamartin|Rheb|raptor|rictor|S6K1?|sirtuins?' +
    String.raw`|SIRT[1-7]|NAD\+|NAD(?![(P]|P?H)|nicotinamide\w*|NMN|autophag\w*|mitophag\w*|mitochondri\w*` +
    String.raw`|telomer\w*|klotho|proteostasis|unfolded protein response|AMPK|FOXO\d?\w*|insulin\/IGF-?1?` +
    String.raw`|IGF-1 signal\w*|stem cell exhaustion|caloric restriction|calorie restriction|dietary restriction` +
    String.raw`|intermittent fasting|time-restricted (?:eating|feeding)|fasting-mimicking)\b`,
  'gi',
)

/** Where a hallmark process is only a tool: cancer, infection, injury, development, rare syndromes, other diseases. */
export const OTHER_CONTEXT = new RegExp(
  String.raw`\b(?:cancers?|tumou?r\w*|neoplas\w*|oncogen\w*|oncolog\w*|malignan\w*|metasta\w*|leuka?emia\w*` +
    String.raw`|myeloma|melanoma\w*|angiomyolipoma\w*|rhabdomyoma\w*|hamartoma\w*|astrocytoma\w*|PEComa\w*` +
    String.raw`|chemotherap\w*|anti-?cancer|antitumou?r|infect\w*|bacteri\w*|viral|virus\w*|HIV|hepatitis|sepsis` +
    String.raw`|septic|parasit\w*|pathogen\w*|injur\w*|ischemi\w*|ischaemi\w*|trauma\w*|wound\w*|embryo\w*` +
    String.raw`|embryonic|fetal|foetal|neonatal|perinatal|pregnan\w*|offspring|congenital|developmental` +
    String.raw`|development of the|neurodevelopment\w*|tuberous sclerosis(?! (?:complex )?(?:[12]|proteins?` +
    String.raw`|genes?)\b)|TSC patients|lymphangioleiomyomatosis|LAM|epilep\w*|seizures?|autis\w*|diabetic` +
    String.raw`|diabetes|obes\w*|insulin resistance|transplant\w*|allerg\w*|asthma|colitis|nephropathy|polycystic` +
    '|cystic kidney|pulmonary hypertension|retinitis pigmentosa|lesions?|spermatogenesis' +
    String.raw`|immunosuppress\w*|depressi\w*|psychot\w*|psychiatr\w*|schizophren\w*|bipolar|anxiety|insomnia` +
    String.raw`|menopausal (?:symptoms|syndrome)|vasomotor|hot flushes|therapy response|drug resistance)\b` +
    '|(?:carcinoma|lymphoma|glioma|blastoma|sarcoma|toxicity)',
  'gi',
)

/**
 * Geriatric medicine: frailty, sarcopenia, multimorbidity or polypharmacy as predictors or outcomes, geriatric
 * assessment (guidelines: tangential unless the ageing process behind them is studied).
 */
export const GERIATRIC = new RegExp(
  String.raw`\b(?:frailty|frail|pre-?frail\w*|sarcopeni\w*|multimorbidity|polypharmacy|geriatric (?:assessment` +
    String.raw`|syndromes?|medicine|care|patients?|oncology|rehabilitation))\b`,
  'gi',
)

/** Core pathways through which an age-related disease can be studied (guidelines: relevance 2). */
export const CORE_PATHWAY = new RegExp(
  String.raw`\b(?:m?TOR(?:C[12])?|mechanistic target of rapamycin|mammalian target of rapamycin|rapamycin` +
    String.raw`|sirolimus|sirtuins?|SIRT[1-7]|NAD\+|nicotinamide (?:riboside|mononucleotide)|NMN|autophag\w*` +
    String.raw`|mitophag\w*|mitochondri\w*|senescen\w*|senolytic\w*|telomer\w*|klotho|proteostasis` +
    String.raw`|caloric restriction|dietary restriction)\b`,
  'gi',
)

/** Diseases of old age beside neurodegeneration. */
export const AGE_RELATED_DISEASE = new RegExp(
  String.raw`\b(?:osteoporo\w*|sarcopeni\w*|frailty|frail|osteoarthriti\w*|emphysema|COPD|atherosclero\w*` +
    String.raw`|macular degeneration|idiopathic pulmonary fibrosis)\b`,
  'gi',
)

/** Organ physiology and behaviour: where an mTOR or sirtuin paper is about the organ, not about the pathway. */
export const PHYSIOLOGY = new RegExp(
  String.raw`\b(?:immun\w*|T[- ]cells?|lymphocytes?|macrophages?|lipogenesis|lipid droplets?|adipo\w*|GLP-1` +
    String.raw`|insulin secretion|beta-cells?|islets?|gastric|intestin\w*|hepat\w*|liver|kidneys?|renal` +
    String.raw`|bone(?![- ]marrow)|osteo\w*|cilia|sperm\w*|testi\w*|ovar\w*|follic\w*|oocytes?|hypoxi\w*` +
    String.raw`|angiogen\w*|cardiac|heart|lungs?|pulmonary|skin|hair|retina\w*|photoreceptors?|dendrit\w*` +
    String.raw`|synap\w*|axon\w*|behavio\w*|feeding|appetite|nesfatin\w*|gluconeogenesis|glycoly\w*` +
    String.raw`|erythropoie\w*|depress\w*|vascular|calcification|development|growth(?! factors?)|antibod(?:y|ies)` +
    String.raw`|assays?)\b|(?<!\w)β-cells?`,
  'gi',
)

/** Cognition as an outcome: in older people without a named disease, the question is cognitive ageing. */
export const COGNITION = new RegExp(
  String.raw`\b(?:cognit\w*|memory(?! (?:T|B|CD\d+\+?|lymphocytes?|cells?|responses?|phenotype)\b)` +
    String.raw`|executive function\w*|neuropsychological)\b`,
  'gi',
)

/** Dietary-restriction-type regimens (guidelines: tangential (d) when given for a non-ageing outcome). */
export const DR_REGIMEN = new RegExp(
  String.raw`\b(?:(?:caloric|calorie|dietary) restriction|intermittent fasting|time-restricted (?:eating` +
    String.raw`|feeding)|alternate-day fasting|fasting-mimicking diet|periodic fasting)\b`,
  'gi',
)

export const count = (re: RegExp, text: string) => text.match(re)?.length ?? 0
export const has = (re: RegExp, text: string) => {
  re.lastIndex = 0
  const hit = re.test(text)
  re.lastIndex = 0
  return hit
}
