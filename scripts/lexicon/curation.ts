/**
 * A curator's rules for turning database names into text matches. Names in gene and compound
 * databases are complete, not safe: NCBI lists "CAT", "SET", "HR" and "CI" as gene names, DrugAge
 * lists CAS numbers and vendor codes as synonyms. Everything here is kept for look-ups; these rules
 * only decide what the matcher reads in abstracts. The lists were made by running the built-in
 * matcher over the real records in ../shared/fixtures/literature (scripts/lexicon/precision.ts) and
 * reading the most frequent matches in context.
 */
import { normalizeAlias } from '../../src/lexicon/normalize'

/**
 * Gene symbols and aliases that real abstracts use for something else (statistics, methods, units,
 * diseases, ordinary words in capitals), in any letter case. Never matched; still look-up names.
 */
export const AMBIGUOUS_GENE_TERMS = new Set<string>(
  [
    // mTOR complexes, protein families and enzyme classes named like one gene's alias
    'TORC1',
    'TORC2',
    'TORC3',
    '14-3-3',
    'PP2A',
    'PI3',
    'ATPase',
    'P450',
    'NADPH',
    'PDK1',
    'HSP70',
    'HSP90',
    // anatomy, cells and cell lines
    'CA1',
    'CA2',
    'CA3',
    'CA4',
    'MSC',
    'RPE',
    'INS-1',
    'APC',
    'GSC',
    'NRK',
    // chemistry, statistics and methods
    'PFAS',
    'Ras-related',
    'CO2',
    '14.1',
    'MAF',
    'SPR',
    'ACR',
    'DBP',
    'SCD',
    'CORT',
    'DES',
    'MIP',
    'PV',
    'NMI',
    'CAD',
    'MET',
    'POLE',
  ].map(normalizeAlias),
)

/** Aliases that are clone or locus names, not names anyone writes in an abstract. */
export const CLONE_NAME =
  /^(?:FLJ|KIAA|DKFZ|MGC|HSPC|LOC|CGI-|PRO\d|RP\d+-|UNQ|PSEC|bA\d|dJ\d|cI\d|hCG|BC\d{5}|AF\d{5}|AB\d{5}|AL\d{5}|CTA-|CTB-|CTD-|XXbac|HGNC)|orf\d/i

/**
 * DrugAge compounds that abstracts mostly name as nutrients, metabolites, solvents or measurements
 * (glucose uptake, leucine sensing, ethanol fixation), not as a compound given to extend life. The
 * compound keeps its entry and look-up names; its names are not matched in text.
 */
export const GENERIC_COMPOUNDS = new Set<string>(
  [
    'Ethanol',
    'Glucose',
    'D-glucose',
    'Fructose',
    'Sucrose',
    'Galactose',
    'Glycerol',
    'D-glycerol',
    'Citrate',
    'Pyruvate',
    'Sodium pyruvate',
    'DL-lactate',
    'Oxaloacetate',
    'DL-isocitrate',
    'Phosphoenolpyruvate',
    'Sodium Chloride',
    'Potassium Chloride',
    'Caffeine',
    'Glutathione',
    'Homocysteine',
    'Alanine',
    'D-alanine',
    'Beta-alanine',
    'Arginine',
    'Asparagine',
    'D-aspartate',
    'Cysteine',
    'Glutamine',
    'Glutamate',
    'D-glutamate',
    'Glycine',
    'Histidine',
    'Isoleucine',
    'L-isoleucine',
    'Leucine',
    'L-Leucine',
    'Lysine',
    'Methionine',
    'Proline',
    'Serine',
    'Threonine',
    'Tryptophan',
    'Tyrosine',
    'Valine',
    'L-Valine',
  ].map(normalizeAlias),
)

/** DrugAge synonyms that are identifiers, formulas or vendor codes rather than names. */
export const IDENTIFIER_SYNONYM = [
  /^\d+-\d+-\d$/, // CAS registry number
  /^(?:CHEBI|CHEMBL|UNII|MFCD|EINECS|NSC|CCRIS|HSDB|BRN|AI3|DSSTox|NCGC|SCHEMBL|ZINC|AC1|MLS|SPECTRUM|HMS|MolPort|BB_|KBio|BSPBio|Prestwick|CAS|EC |SMR|SBI|Tox21|BIDD|STK|AKOS|CID|SR-|s\d{4}|Lopac|IDI1_|NCI|UPCMLD|Oprea|CBDive|DivK|CMAP|GTPL|BPBio|KBioGR|KBioSS|SDCCGMLS|Spectrum|NINDS|MEGxp|BiomolKI|Epitope|ACMC|ACT\d|AN-\d|AJ-|AK-|AX8|CS-|FT-|HY-|KS-|LS-|RL\d|SC-|ST\d|TC-|TL\d|TRA|VU\d|W-\d|Z\d{5})/i,
  /^[A-Z0-9]{10}$/, // UNII code
  /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/, // InChIKey
  /^C\d+H\d+/, // molecular formula
  /\[|\]|\(TN\)|INN|USAN|JAN|BAN|DCF|USP|VAN/, // labelled name variants
]
