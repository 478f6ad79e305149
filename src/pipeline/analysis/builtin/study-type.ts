/**
 * Study type from the design the abstract describes (guidelines: "content wins over the publication-type tag"):
 * who or what was studied, and whether the authors intervened. Publication types and MeSH check tags are hints
 * that add to the text's evidence; they decide only when the text says nothing.
 *
 * In order: a review, case report, protocol, commentary or methods paper says so in its title, its aim or its
 * publication type; an intervention given to people, planned and compared (randomised, placebo, crossover,
 * open-label...), is a human trial unless the paper analyses a trial's data for another question; otherwise the
 * organism or material the methods and results sentences name: animals (mice plus cells is animal),
 * invertebrates, cells, people, or existing data.
 */
import type { StudyType } from '../../../taxonomy'
import type { PaperInput } from '../types'
import type { Reading, Role } from './reading'
import { count, has } from './cues'
import { hitsByPart } from './part-hits'

type Scores = Record<StudyType, number>

const REVIEW_TYPES =
  /^(review|systematic review|meta-analysis|review-article|scoping review|review literature as topic)$/i
const TRIAL_TYPES = new RegExp(
  '^(randomized controlled trial|controlled clinical trial|pragmatic clinical trial|clinical trial' +
    '|clinical trial, phase [iv]+|equivalence trial|adaptive clinical trial)$',
  'i',
)
const OTHER_TYPES = new RegExp(
  '^(editorial|comment|letter|news|interview|published erratum|case reports|biography' +
    '|historical article|retraction of publication|guideline|practice guideline' +
    '|consensus development conference)$',
  'i',
)

/** Where a cue sits: methods and results name what was studied; background names what others studied. */
const ROLE_WEIGHT: Record<Role, number> = { title: 3, aim: 2, conclusion: 1.5, body: 1, background: 0.3 }

const REVIEW_TEXT = new RegExp(
  String.raw`\b(?:(?:this|our|the present|a|narrative|systematic|scoping|critical|brief|short|comprehensive` +
    String.raw`|mini-?)\s+review|we (?:review|summari[sz]e|discuss|highlight|overview|outline|survey` +
    '|describe recent)|(?:is|are) reviewed|reviews? (?:of|on) (?:the|recent|current)|in this (?:review' +
    '|chapter|article, we (?:review|discuss|summari[sz]e))|meta-analys[ie]s|overview of' +
    '|literature review|review of the literature|recent (?:advances|progress|developments|insights' +
    String.raw`|findings)|current (?:knowledge|understanding|evidence|concepts)|state of the art|an update)\b`,
  'i',
)
const META_OF_DATA = new RegExp(
  String.raw`\bmeta-analys[ie]s\b.{0,120}\b(?:genome-wide|GWAS|genetic (?:basis|loci|variants|association)|loci` +
    String.raw`|polymorphisms?)|\bGWAS meta-analys`,
  'i',
)
/**
 * A meta-analysis or systematic review of trials or studies, said as the authors' own design (guidelines: a review).
 */
const META_DESIGN = new RegExp(
  String.raw`\b(?:we (?:performed|conducted|carried out|undertook|did) an? (?:\w+ ){0,3}(?:meta-analys[ie]s` +
    String.raw`|systematic review)|(?:systematic review|meta-analys[ie]s) of (?:all )?(?:\w+[ ,-]+){0,6}?(?:trials` +
    String.raw`|studies)|\d+ (?:\w+ ){0,3}(?:trials|studies) (?:were|was) (?:identified|included|eligible` +
    String.raw`|pooled))\b`,
  'i',
)
/** A study whose method is a model or an analysis of existing data, said in its title or aim. */
const MODEL_STUDY = new RegExp(
  String.raw`\b(?:markov (?:model|decision|chain)|decision (?:analysis|analytic model|model)` +
    '|cost-effectiveness (?:analysis|model)|microsimulation|simulation model|(?:machine' +
    '|deep) learning (?:model|approach|algorithm)s?|mendelian randomi[sz]ation' +
    String.raw`|genome-wide association (?:study|analysis|meta-analysis)|in silico (?:analysis|screening|study))\b`,
  'i',
)
const CASE_TITLE = new RegExp(
  String.raw`\b(?:case reports?|case series|case presentation|a case of|autopsy case|report of (?:a|an|one|two` +
    String.raw`|three|four|five|six|seven|eight|nine|ten|\d+) (?:new |unusual |rare )?(?:cases?|patients))\b` +
    String.raw`|\bin an? (?:\d+[- ]year[- ]old |elderly |older |young |pregnant )?(?:patient|man|woman|boy|girl` +
    String.raw`|infant|child|neonate)\b(?! (?:population|cohort|sample))`,
  'i',
)
/**
 * A case report that is also a systematic review of the published cases is a review (guidelines: reviews include
 * systematic reviews).
 */
const CASE_AND_REVIEW = /\bsystematic review\b/i
/** Answers to other papers, book reviews and corrections: no study of their own, whatever the paper they answer was. */
const RESPONSE_TITLE = new RegExp(
  String.raw`^(?:authors?'? (?:response|reply)|reply\b|in reply|response to\b|re:|comment on\b|book reviews?\b` +
    String.raw`|erratum\b|corrigendum\b|correction to\b)`,
  'i',
)
/**
 * A review not yet done: its protocol says what will be searched and pooled, and has no results (guidelines: protocols
 * are other).
 */
const REVIEW_PROTOCOL = new RegExp(
  String.raw`\b(?:(?:review|meta-analysis) protocol|protocol (?:for|of) (?:a|an) (?:\w+ )?(?:systematic review` +
    '|meta-analysis|scoping review)|will be (?:searched|screened|extracted|synthesi[sz]ed|pooled' +
    String.raw`|included)|we will (?:search|systematically|conduct|perform|include))\b`,
  'i',
)
/** Reviews written in other languages, said in the title. */
const FOREIGN_REVIEW = new RegExp(
  String.raw`\b(?:revisi[oó]n sistem[aá]tica|revis[aã]o sistem[aá]tica|revisione sistematica` +
    '|revue syst[eé]matique|systematische[rn]? (?:übersicht|review)|metaan[aá]lisis|meta-an[aá]lise' +
    String.raw`|revisi[oó]n bibliogr[aá]fica|revisi[oó]n de la literatura)\b`,
  'i',
)
const CASE_REPORT = new RegExp(
  String.raw`\b(?:case presentation|(?:we|here we) (?:report|present|describe) (?:a|an|the|two` +
    String.raw`|three) (?:\w+[- ])*(?:case|patient|man|woman|boy|girl|infant|child)|a \d+[- ](?:year|month` +
    String.raw`|week)[- ]old (?:man|woman|male|female|boy|girl|patient|infant|child)|autopsy case|single case)\b`,
  'i',
)
const PROTOCOL = new RegExp(
  String.raw`\b(?:study protocol|protocol (?:for|of) (?:a|an|the)|will be (?:randomi[sz]ed|recruited|evaluated` +
    String.raw`|assessed|measured|compared|enrolled)|we (?:will|plan to)|this protocol)\b`,
  'i',
)
const COMMENTARY = new RegExp(
  String.raw`\b(?:commentary|editorial|perspective|viewpoint|point of view|opinion|we argue|we propose that` +
    String.raw`|essay|news|hypothesis paper|conceptual)\b`,
  'i',
)
const METHOD = new RegExp(
  String.raw`\b(?:we (?:describe|present|outline|detail) (?:the |a |an |our )?(?:\w+ )?(?:methods?|protocols?` +
    String.raw`|procedures?|techniques?)\b|(?:generation|development|validation` +
    '|design) (?:and characteri[sz]ation )?of (?:a |an |the )?(?:novel ' +
    '|new )?(?:monoclonal )?(?:antibod(?:y|ies)|method|tool|assay|software|platform|device|technique' +
    '|model system|reporter|probe|pipeline|database)|we (?:describe|present|developed|introduce) (?:a ' +
    '|an )?(?:new |novel |simple |rapid )?(?:method|tool|protocol|approach|technique|assay|software' +
    '|platform|pipeline)|a (?:new|novel) (?:tool|method|technique|approach) (?:to|for)' +
    String.raw`|methods? (?:chapter|paper)|this chapter|(?:in|using) this (?:method|protocol))\b`,
  'i',
)
/** Molecular biology at the bench: with no organism named, the experiments are on cells or proteins. */
const MOLECULAR = new RegExp(
  String.raw`\b(?:phosphorylat\w*|interacts? with|binds?|binding|deficien\w*|knock(?:out|down)|overexpress\w*` +
    String.raw`|activat(?:es|ed|ion)|inhibit(?:s|ed|ion)|kinases?|proteins?|mRNAs?|transcription\w*|deacetylat\w*` +
    String.raw`|ubiquitin\w*)\b`,
  'gi',
)
/**
 * Signs that the abstract reports a study of its own: its sample, its statistics, its recruitment ("1 million women" is
 * a population, not a sample).
 */
const STRONG_DATA = new RegExp(
  String.raw`\bp\s?[<=>≤]\s?0?\.\d|\bn\s?=\s?\d|\b\d+ (?!million|billion)(?:\w+ ){0,2}(?:patients|participants` +
    String.raw`|subjects|women|men|mice|rats|individuals|children|cases|volunteers)\b|95% ?CI|we (?:recruited` +
    '|enrolled|randomi[sz]ed)|were (?:recruited|enrolled|randomi[sz]ed)',
  'i',
)
const REVIEW_STYLE = new RegExp(
  String.raw`\b(?:(?:longitudinal |clinical |several |many |recent |available |previous |these |observational ` +
    '|animal |more )?studies (?:have|suggest|show|demonstrate|indicate|are needed|combining)' +
    '|available (?:studies|evidence|data)|(?:is|are) recommended|has been (?:shown|reported|suggested' +
    '|implicated|proposed|described)|have been (?:shown|reported|suggested|implicated|proposed' +
    '|identified|developed|described)|evidence (?:suggests|indicates|supports|from)' +
    String.raw`|there is (?:\w+ )?evidence|lends? support|(?:is|are) (?:discussed|reviewed|summari[sz]ed` +
    '|highlighted|presented|described)|we (?:review|discuss|summari[sz]e|highlight|outline)' +
    '|this (?:review|article|chapter|paper)|recent (?:advances|progress|studies|findings|evidence' +
    '|developments|data|years)|current (?:knowledge|understanding|evidence|status|literature' +
    '|treatments?|options|approaches|concepts)|future (?:directions|perspectives|research|studies' +
    '|therapies)|literature|overview|therapeutic (?:options|strategies|approaches|targets|potential)' +
    '|may (?:be|provide|offer|represent|contribute|help)|potential (?:roles?|therapeutic|targets?' +
    String.raw`|benefits?)|emerging|promising)\b`,
  'gi',
)
const DATA_STYLE = new RegExp(
  String.raw`\b(?:we (?:\w+ ){0,2}?(?:found|find|observed|observe|measured|show|showed|demonstrate|demonstrated` +
    '|identified|identify|report|reveal|revealed|generated|examined|analy[sz]ed|ablated|deleted|treated' +
    '|injected|administered|performed|tested|compared|assessed|investigated|studied|crossed|created' +
    '|used|recruited|followed)|were (?:measured|analy[sz]ed|assessed|collected|treated|compared' +
    '|evaluated|obtained|performed|examined|followed|included|observed|detected|significantly)' +
    '|was (?:measured|observed|found|detected|significantly|associated)|resulted in|led to' +
    String.raw`|\d+(?:\.\d+)?\s?(?:%|mg|µg|μg|ng|mM|µM|μM|nM|kg|weeks|months|days|years))`,
  'gi',
)
/** Any sign that the abstract reports data of its own. */
const EMPIRICAL = new RegExp(
  String.raw`\b\d+(?:\.\d+)?\s?%|\bp\s?[<=>≤]\s?0?\.\d|\bn\s?=\s?\d|\b\d+ (?!million` +
    String.raw`|billion)(?:\w+ ){0,2}(?:patients|participants|subjects|women|men|mice|rats|individuals|children` +
    String.raw`|cases|animals|volunteers|samples|specimens)\b|95% ?CI|\b(?:OR|HR|RR)\b|significant(?:ly)?` +
    String.raw`|we (?:\w+ ){0,2}?(?:found|find|observed|observe|measured|show|showed|demonstrate|demonstrated` +
    '|identified|identify|report|reveal|revealed|established|generated|examined|analy[sz]ed|recruited' +
    '|enrolled|ablated|deleted|treated|injected|performed|tested|compared|investigated|studied|crossed' +
    '|created|used)|were (?:measured|analy[sz]ed|recruited|enrolled|assessed|randomi[sz]ed|collected' +
    '|treated|compared|evaluated|obtained|performed|studied|examined|followed)|(?:results|data' +
    '|findings) (?:show|showed|demonstrate|indicate|revealed|suggest)|was (?:associated|observed|found' +
    '|measured|detected)',
  'i',
)
const QUALITATIVE = new RegExp(
  String.raw`\b(?:qualitative (?:study|research|analysis|interviews?)|semi-structured interviews?|focus groups?` +
    String.raw`|thematic analysis|ethnograph\w*|grounded theory)\b`,
  'i',
)

/** The words of a trial's design; the first list is proof enough alone, the second only with others. */
const STRONG_TRIAL = new RegExp(
  String.raw`\b(?:phase (?:I{1,3}V?|[1-4]|1\/2|I\/II)[ab]?\b|randomi[sz]ed|randomly (?:assigned|allocated` +
    String.raw`|included|divided)|(?<!mendelian )randomi[sz]ation|placebo|double[- ]blind\w*|single[- ]blind\w*` +
    String.raw`|triple[- ]blind|crossover|cross-over|open[- ]label|controlled trial|clinical trial)\b`,
  'gi',
)
const TRIAL = new RegExp(
  String.raw`\b(?:group [AB]\b|(?:uncontrolled|single[- ]arm|non-?randomi[sz]ed|open) (?:\w+ ){0,2}(?:study` +
    '|trial|series)|(?:patients|participants|subjects) (?:underwent|were treated)' +
    String.raw`|underwent (?:\w+ ){0,3}(?:implantation|stimulation|transplantation|repair|treatment|therapy)` +
    '|(?:pre|post)-? ?(?:and post-?)?operative(?:ly)?|before and after (?:treatment|surgery' +
    '|the intervention|the programme|the program)|(?:therapy|treatment|supplementation) alone' +
    String.raw`|more (?:effective|beneficial) than|phase (?:I{1,3}V?|[1-4])(?:\/I{1,3}` +
    String.raw`|\/[1-4])?\b(?: \w+)? (?:trial|study)|pilot (?:trial|study)|dose[- ](?:escalation|finding` +
    '|response) (?:study|trial)|(?:intervention|treatment|placebo|control) (?:group|arm)s?' +
    '|were (?:treated|given|supplemented)|received (?:either |a |an |oral |daily |transdermal ' +
    String.raw`|intravenous |\d|\w+ (?:plus|and|or) \w+)|supplement(?:ed|ation)\b|efficacy and (?:safety` +
    '|tolerability)|(?:weeks?|months?|days?) of (?:treatment|therapy|supplementation|training)' +
    String.raw`|treated (?:for|with) \d)`,
  'gi',
)
/** A title that compares treatments or states a treatment's effect: "X versus Y", "Effect of X therapy on...". */
const TRIAL_TITLE = new RegExp(
  String.raw`\b(?:versus|vs\.?)\b|\b(?:versus|vs\.?|compared with)\b.*\b(?:therapy|treatment|regimens?` +
    String.raw`|supplementation|replacement|administration|dose|tablets?|cream|gel|ring|training|placebo)\b` +
    String.raw`|\b(?:therapy|treatment|regimens?|supplementation|replacement|administration|tablets?` +
    String.raw`|training)\b.*\b(?:versus|vs\.?|compared with)\b|\beffects? of (?:\w+[- ]){0,5}(?:therapy` +
    String.raw`|treatment|supplementation|replacement|administration|training|intervention|regimens?)\b`,
  'i',
)
const SECONDARY = new RegExp(
  String.raw`\b(?:secondary|post[- ]hoc|exploratory|pooled) (?:analys[ie]s|study)|(?:data|samples) (?:from` +
    String.raw`|of) (?:a|an|the) (?:\w+[- ]){0,4}(?:trial|study cohort)|retrospective|registry`,
  'i',
)
/** The methods say the data came from people who took part in a trial: a reanalysis, not the trial's own report. */
const TRIAL_DATA = new RegExp(
  String.raw`\b(?:analy[sz]ed|used|examined) (?:\w+ ){0,2}data (?:from|of|on)\b[^.]{0,150}\b(?:participated` +
    String.raw`|took part|were enrolled|enrolled) in (?:a|an|the) (?:[\w-]+ ){0,5}(?:trial|RCT)\b`,
  'i',
)
const PEOPLE = new RegExp(
  String.raw`\b(?:patients?|participants?|subjects|volunteers?|women|men|adults?|children|adolescents?|infants?` +
    '|individuals|persons?|people|residents|veterans|smokers|athletes|students|recipients|donors' +
    String.raw`|pregnant women|postmenopausal|elderly|octogenarians)\b`,
  'gi',
)

const INVERTEBRATE = new RegExp(
  String.raw`\b(?:c\.? ?elegans|caenorhabditis|nematodes?|(?<!\w-)worms?|drosophila|fruit ?fl(?:y|ies)` +
    String.raw`|(?<!\w)flies|yeasts?|saccharomyces|s\.? ?cerevisiae|s\.? ?pombe|schizosaccharomyces|fung(?:i|al` +
    '|us)|neurospora|podospora|aspergillus|arabidopsis|plants?|seedlings?|algae|algal|chlamydomonas' +
    String.raw`|honey ?bees?|insects?|mosquito\w*|daphnia|hydra|planarians?|rotifers?)\b`,
  'gi',
)
const ANIMAL = new RegExp(
  String.raw`\b(?:mice|mouse(?! (?:embryonic fibroblasts|cell|fibroblast|model of)\b)|murine (?:model` +
    '|tumou?rs?)|rats?(?! (?:cell|hepatocytes|neurons|hippocampal neurons|primary))|rodents?|zebrafish' +
    '|killifish|medaka|xenopus|frogs?|primates?|monkeys?|macaques?|marmosets?|dogs?|canine|cats|feline' +
    '|pigs?|piglets|swine|porcine|sheep|ovine|lambs|cattle|bovine|cows?|calves|horses?|equine|rabbits?' +
    '|hamsters?|guinea pigs?|chick(?:en)?s?|birds?|ferrets?|xenografts?|(?:knockout|knock-in|transgenic' +
    '|conditional) (?:mice|mouse|rats?|animals|models?)|in vivo|animal models?|animals|cKO|floxed' +
    String.raw`|Cre(?:-\w+)?|conditional(?:ly)? (?:deleted|deletion|ablat\w*|knockout|inactivat\w*))\b`,
  'gi',
)
const CELLS = new RegExp(
  String.raw`\b(?:cell lines?|cultured|cultures?|in vitro|MEFs|fibroblasts|organoids?|spheroids?|explants?|HeLa` +
    String.raw`|HEK ?-?293\w*|MCF-?7|HepG2|A549|SH-SY5Y|PC12|NSC-34|L929|COS-?\d|CHO cells|THP-1|Jurkat` +
    String.raw`|primary (?:\w+ )?(?:cells|neurons|hepatocytes|cultures)|iPSC-derived|(?:siRNA|shRNA)s?` +
    String.raw`|knock-?down|transfect\w*|cells were|bacteri\w*|escherichia|e\. coli|pseudomonas|strains? of` +
    '|recombinant|purified|crystal structures?|biochemical(?:ly)?|(?:infected|cultured' +
    String.raw`|isolated) (?:\w+ )?(?:cells|hepatocytes|neurons|cardiomyocytes)|hepatocytes|cardiomyocytes)\b`,
  'gi',
)
const HUMAN_OBS = new RegExp(
  String.raw`\b(?:human (?:\w+ )?(?:lesions|tissues?|samples|tumou?rs|specimens|biops(?:y|ies))|cohort` +
    String.raw`|cross-sectional|case-control|population-based|retrospective\w*|prospective\w*|registr\w*|surveys?` +
    String.raw`|questionnaires?|follow-up|prevalence|incidence|associat\w+ (?:between|with)|biops(?:y|ies)` +
    String.raw`|autops\w+|blood samples|serum|plasma|specimens?|tissue samples|medical records|charts` +
    '|patients? with|recruited|enrolled|consecutive|clinical (?:data|characteristics|features)' +
    String.raw`|outcomes?|mortality|risk factors?|epidemiolog\w*)\b`,
  'gi',
)
const COMPUTATIONAL = new RegExp(
  String.raw`\b(?:markov|decision (?:analysis|model)|cost-effectiveness|microsimulation|GWAS` +
    '|genome-wide association|machine learning|deep learning|neural networks?|in silico' +
    String.raw`|computational(?:ly)?|bioinformatic\w*|simulations?|mathematical model\w*|model(?:l)?ing` +
    String.raw`|mendelian randomi[sz]ation|publicly available|public (?:data\w*|databases?)|databases?` +
    '|data ?sets?|TCGA|GEO|microarray (?:data|atlas)|meta-analys[ie]s of (?:genome-wide|GWAS)' +
    String.raw`|network (?:analysis|pharmacology)|molecular docking)\b`,
  'gi',
)

const INVERTEBRATE_MESH =
  /^(Caenorhabditis|Drosophila|Saccharomyces|Schizosaccharomyces|Yeasts|Nematoda|Insecta|Arabidopsis|Plants|Fungi)/
const ANIMAL_MESH = new RegExp(
  '^(Mice|Rats|Dogs|Cats|Swine|Macaca|Primates|Zebrafish|Killifishes|Mole Rats|Rabbits|Sheep|Cattle' +
    '|Cricetinae|Disease Models, Animal|Xenograft Model Antitumor Assays|Horses|Chickens)',
)
const CELL_MESH = /^(Cell Line|Cells, Cultured|Primary Cell Culture|Organoids|.*\d.* Cells$|HeLa Cells)/
const OBSERVATIONAL_MESH =
  /^(Retrospective Studies|Cohort Studies|Cross-Sectional Studies|Case-Control Studies|Longitudinal Studies)$/
const COMPUTATIONAL_MESH = new RegExp(
  '^(Computational Biology|Computer Simulation|Machine Learning|Deep Learning|Algorithms|Software' +
    '|Models, Theoretical|Databases, Genetic|Neural Networks, Computer|Mendelian Randomization Analysis' +
    '|Genome-Wide Association Study)',
)

export type StudyTypeResult = { studyType: StudyType; confidence: number; organismHint: string | null }

/**
 * Design words in a first sentence describe this study ("In this randomised trial..."), unlike organism words there.
 */
const DESIGN_WEIGHT: Record<Role, number> = { ...ROLE_WEIGHT, background: 1 }

/** A background sentence about earlier work ("Several randomized trials have shown...") says nothing of this design. */
const OTHERS_WORK = /\b(?:trials|studies|have|has been|previous\w*|prior)\b/i

function weighted(re: RegExp, reading: Reading, weights = ROLE_WEIGHT): number {
  let score = 0
  const hits = hitsByPart(reading, re)
  reading.parts.forEach(({ role, text }, i) => {
    if (hits[i]) score += (role === 'background' && OTHERS_WORK.test(text) ? 0.2 : weights[role]) * Math.min(hits[i], 2)
  })
  return score
}

const inSubject = (re: RegExp, reading: Reading) =>
  reading.parts.some((p) => (p.role === 'title' || p.role === 'aim') && re.test(p.text))

export function classifyStudyType(paper: PaperInput, reading: Reading): StudyTypeResult {
  const types = paper.publicationTypes.map((t) => t.trim())
  const mesh = paper.meshHeadings.map((h) => h.descriptor)
  const hasAbstract = reading.abstract.length > 0
  const result = (studyType: StudyType, confidence: number): StudyTypeResult => ({
    studyType,
    confidence: round(confidence),
    organismHint: null,
  })

  // 1. What kind of paper it is, said by its title, its aim or its publication type.
  const tagged = (re: RegExp) => types.some((t) => re.test(t))
  const caseReport =
    CASE_TITLE.test(reading.title) ||
    CASE_REPORT.test(reading.title) ||
    tagged(/^case reports$/i) ||
    reading.parts.slice(0, 4).some((p) => CASE_REPORT.test(p.text))
  const reviewText = REVIEW_TEXT.test(reading.title) || inSubject(REVIEW_TEXT, reading)
  const originalData = STRONG_DATA.test(reading.body)
  const anyData = EMPIRICAL.test(reading.body)
  if (RESPONSE_TITLE.test(reading.title)) return result('other', 0.85)
  if (caseReport && CASE_AND_REVIEW.test(reading.title)) return result('review', 0.8)
  if (caseReport && !(tagged(REVIEW_TYPES) && !/case/i.test(reading.title))) return result('other', 0.85)
  if (
    REVIEW_PROTOCOL.test(reading.title) ||
    (REVIEW_PROTOCOL.test(reading.all) &&
      !/\b(?:results|we found|were found|were included|studies met)\b/i.test(reading.body))
  )
    return result('other', 0.75)
  if (FOREIGN_REVIEW.test(reading.title)) return result('review', 0.85)
  if (META_OF_DATA.test(reading.all) || MODEL_STUDY.test(reading.title) || inSubject(MODEL_STUDY, reading))
    return result('computational', 0.75)
  if (REVIEW_TEXT.test(reading.title)) return result('review', 0.9)
  if (
    reading.parts.some(
      (p) =>
        p.role !== 'title' &&
        p.role !== 'background' &&
        META_DESIGN.test(p.text) &&
        !/\b(?:previous|prior|earlier|published) (?:\w+ )?(?:meta|trials|studies)/i.test(p.text),
    )
  )
    return result('review', 0.8)
  if (tagged(REVIEW_TYPES) && (!originalData || reviewText)) return result('review', reviewText ? 0.95 : 0.85)
  if (reviewText && !originalData) return result('review', 0.8)
  if (
    PROTOCOL.test(reading.title) ||
    (PROTOCOL.test(reading.all) && !/\b(?:results|we found|were found)\b/i.test(reading.body))
  )
    return result('other', 0.7)
  if (METHOD.test(reading.title) || inSubject(METHOD, reading)) return result('other', 0.7)
  if (QUALITATIVE.test(reading.title) || inSubject(QUALITATIVE, reading)) return result('other', 0.75)
  if (tagged(OTHER_TYPES) && !originalData) return result('other', 0.8)
  if (!hasAbstract && (COMMENTARY.test(reading.title) || types.length === 0))
    return result(tagged(REVIEW_TYPES) ? 'review' : 'other', 0.4)
  if (COMMENTARY.test(reading.title) && !originalData) return result('other', 0.6)
  // A substantial abstract that reports no data of its own (no numbers, no findings) reviews or argues.
  // An abstract written as a survey of others' work (present tense, "studies have shown", "future directions")
  // rather than as a report of its own data is a review, whatever its tag.
  const surveyStyle = count(REVIEW_STYLE, reading.body) + (anyData ? 0 : 2)
  const dataStyle = count(DATA_STYLE, reading.body) + (originalData ? 2 : 0)
  if (hasAbstract && surveyStyle >= 3 && surveyStyle > dataStyle + 1 && !TRIAL_TITLE.test(reading.title))
    return result('review', 0.6)

  // 2. Who or what was studied: cues weighted by where they sit, publication types and MeSH as hints.
  const s: Scores = {
    human_trial: 0,
    human_observational: weighted(HUMAN_OBS, reading) * 0.5 + weighted(PEOPLE, reading) * 0.5,
    animal: weighted(ANIMAL, reading),
    invertebrate: weighted(INVERTEBRATE, reading) * 1.2,
    cells: weighted(CELLS, reading) * 0.8,
    computational: weighted(COMPUTATIONAL, reading) * 0.7,
    review: 0,
    other: 0,
  }
  // MeSH check tags: one vote per kind, however many headings (Mice, Mice, Knockout, Mice, Inbred C57BL...).
  // Without an abstract the indexers, who read the whole paper, are the best witness left.
  const meshWeight = hasAbstract ? 1.5 : 4
  const meshVote = (re: RegExp) => (mesh.some((h) => re.test(h)) ? meshWeight : 0)
  s.invertebrate += meshVote(INVERTEBRATE_MESH) * 1.3
  s.animal += meshVote(ANIMAL_MESH)
  s.cells += meshVote(CELL_MESH)
  s.computational += meshVote(COMPUTATIONAL_MESH)
  if (mesh.includes('Humans')) s.human_observational += hasAbstract ? 1 : 2.5
  if (!hasAbstract && s.computational > 0 && mesh.includes('Animals')) s.computational = 0
  const trial =
    weighted(STRONG_TRIAL, reading, DESIGN_WEIGHT) * 2 +
    weighted(TRIAL, reading, DESIGN_WEIGHT) +
    (tagged(TRIAL_TYPES) ? 4 : 0) +
    (TRIAL_TITLE.test(reading.title) ? 1.5 : 0)
  const secondary =
    SECONDARY.test(reading.title) ||
    inSubject(SECONDARY, reading) ||
    TRIAL_DATA.test(reading.body) ||
    mesh.some((h) => OBSERVATIONAL_MESH.test(h))
  const human = s.human_observational
  const peopleInTitle = count(PEOPLE, reading.title) + count(HUMAN_OBS, reading.title) > 0
  const nonHuman = Math.max(s.animal, s.invertebrate, s.cells)
  // An intervention given to people, planned and compared, is a trial; an analysis of a trial's data for another
  // question is not.
  // A reanalysis of a trial that still reports the randomised comparison (treatment against placebo) is the trial's
  // evidence.
  const randomisedComparison =
    /\b(?:assigned to|randomi[sz]ed to|compared with (?:\w+ ){0,3}placebo|versus placebo|than placebo)\b/i.test(
      reading.body,
    )
  const people = weighted(PEOPLE, reading) + (mesh.includes('Humans') ? 1 : 0)
  if (trial >= 2 && people >= 1 && human >= nonHuman && !(secondary && !tagged(TRIAL_TYPES) && !randomisedComparison))
    return result('human_trial', trial >= 6 ? 0.9 : trial >= 3.5 ? 0.8 : 0.65)
  // Work in vivo outranks the cell work that usually comes with it; flies and worms outrank the vertebrate cues of
  // their background.
  let best: StudyType
  if (s.invertebrate >= 3 && s.invertebrate >= s.animal) best = 'invertebrate'
  // Experiments of the authors' own (in animals, then in cells) outrank the patients who motivate them, unless the
  // title is about people (a cohort with a few supporting experiments stays human_observational).
  else if (s.animal >= 3 && (s.animal >= human * 0.6 || !peopleInTitle)) best = 'animal'
  else if (s.cells >= 2.5 && (s.cells >= human * 0.6 || !peopleInTitle)) best = 'cells'
  else if (s.computational >= 3 && s.computational >= human * 0.8 && nonHuman < 3) best = 'computational'
  else if (human >= 2) best = 'human_observational'
  else if (nonHuman < 1 && human < 1.5 && s.computational < 1 && count(MOLECULAR, reading.body) >= 3)
    best = 'cells' // bench work on molecules, no organism named
  else {
    const ranked = (['animal', 'invertebrate', 'cells', 'computational', 'human_observational'] as const)
      .map((t) => [t, s[t]] as const)
      .sort((a, b) => b[1] - a[1])
    best = ranked[0][1] > 0.5 ? ranked[0][0] : 'other'
  }
  const total = s.animal + s.invertebrate + s.cells + s.computational + human
  const share = total > 0 ? s[best] / total : 0
  const confidence = best === 'other' ? 0.35 : 0.45 + 0.45 * share * Math.min(1, total / 8)
  if (!hasAbstract) return result(best, best !== 'other' && mesh.length > 0 ? 0.75 : confidence * 0.8)
  return result(best, confidence)
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits
