/**
 * The judging rules on small handmade records that read like the examples of the judgement guidelines
 * (docs/judgement-guidelines.md). No MeSH unless a case says so: new papers and preprints have none.
 */
import { describe, expect, test } from 'bun:test'
import { analyzePaper } from '../../src/pipeline/analysis/builtin'
import { DISTRIBUTIONS } from '../../src/pipeline/analysis/builtin/relevance'
import { paperInput } from './paper-input'

const judge = (title: string, abstract: string, extra: Parameters<typeof paperInput>[0] = {}) =>
  analyzePaper(paperInput({ title, abstract, journal: 'Journal of Examples', ...extra })).judgement
const band = (r: number) => (r < 1 ? '<1' : r < 2 ? '1-2' : '2+')

describe('relevance: what the paper is about, not which words occur', () => {
  // Issue 34: the independent sets' false positives were mostly geriatric medicine promoted to ageing biology.
  test.each([
    [
      'frailty as a predictor in a clinical population',
      'Frailty predicts complications after colorectal surgery in older patients',
      'We assessed frailty with the Clinical Frailty Scale in 388 patients undergoing colorectal surgery. Frail patients had more complications and longer stays. Frailty screening should precede surgery.',
    ],
    [
      'sarcopenia as an outcome of a drug trial in older people',
      'Effect of vitamin D supplementation on sarcopenia in older women: a randomised trial',
      'Women over 70 were randomised to vitamin D or placebo for one year. Sarcopenia, defined by grip strength and muscle mass, was less frequent with vitamin D. Vitamin D may prevent sarcopenia.',
    ],
  ])('geriatric medicine: %s is tangential', (_case, title, abstract) => {
    expect(band(judge(title, abstract).relevance)).toBe('1-2')
  })

  test('sarcopenia studied through a core pathway is relevant', () => {
    const j = judge(
      'Mitochondrial dysfunction and mTOR signalling in sarcopenia of aged mice',
      'Sarcopenia is the age-related loss of muscle mass. In 24-month-old mice, mitochondrial respiration fell and mTORC1 signalling rose in muscle; rapamycin restored muscle mass.',
    )
    expect(band(j.relevance)).toBe('2+')
  })

  test.each([
    [
      'development "across the lifespan"',
      'Self-management across the lifespan in spina bifida: a systematic review',
      'We reviewed 41 studies of self-management in people with spina bifida across the lifespan, from childhood to adulthood. Self-management skills depended on family support and cognition.',
    ],
    [
      'a circadian "biological clock"',
      'Skin temperature and the biological clock in shift nurses',
      'We compared peripheral skin temperature rhythms and salivary melatonin in 40 nurses on rotating shifts and 30 on day shifts. Shift work shifted the biological clock by two hours.',
    ],
  ])('a homonym of ageing: %s is 0', (_case, title, abstract) => {
    expect(band(judge(title, abstract).relevance)).toBe('<1')
  })

  test.each([
    [
      'rapamycin as an autophagy inducer in a cancer model',
      'Rapamycin enhances cisplatin sensitivity of ovarian cancer cells through autophagy',
      'Autophagy is a survival pathway of tumour cells. We treated SKOV3 ovarian cancer cells and xenograft tumours with rapamycin to induce autophagy. Rapamycin increased LC3-II and enhanced cisplatin-induced apoptosis. These findings suggest that autophagy induction sensitises ovarian cancer to chemotherapy.',
    ],
    [
      '"aged 65 and over" as the sampling frame',
      'Fall risk after hip fracture surgery in patients aged 65 and over',
      'We followed 412 patients aged 65 years and over admitted with hip fracture for one year. Falls occurred in 31% and were associated with delirium and anticoagulant use. Older adults with delirium need fall-prevention programmes after surgery.',
    ],
    [
      '"age-related" as a disease adjective',
      'Serum vitamin D and age-related cataract: a cross-sectional study',
      'In 5,210 adults of a national survey, low serum 25-hydroxyvitamin D was associated with age-related cataract (OR 1.4). Vitamin D may protect the lens.',
    ],
    [
      'DNA methylation as a cancer biomarker',
      'Promoter methylation of RASSF1A as a diagnostic biomarker in breast cancer',
      'We measured RASSF1A promoter DNA methylation in tumour and plasma samples from 180 patients with breast cancer. Methylation detected cancer with 78% sensitivity. DNA methylation of RASSF1A is a promising biomarker for early diagnosis.',
    ],
    [
      'mitochondria studied in an infection',
      'Mitochondrial reactive oxygen species drive macrophage killing of Salmonella',
      'We show that Salmonella infection increases mitochondrial ROS in macrophages, and that mitochondria-targeted antioxidants impair bacterial killing in infected mice.',
    ],
  ])('%s is 0', (_case, title, abstract) => {
    const j = judge(title, abstract)
    expect(band(j.relevance)).toBe('<1')
    expect(j.relevanceConfidence).toBeGreaterThan(0.6)
  })

  test.each([
    [
      'mTOR signalling as the subject of a review',
      'Regulation of mTORC1 signalling by amino acids and growth factors',
      'This review summarises how amino acids and growth factors converge on mTORC1 through the Rag GTPases, Rheb and the TSC complex, and how mTORC1 controls protein synthesis.',
      'mtor-rapamycin',
    ],
    [
      "Alzheimer's disease studied without an ageing frame",
      "Plasma p-tau217 distinguishes Alzheimer's disease from frontotemporal dementia",
      "In 320 patients with Alzheimer's disease or frontotemporal dementia, plasma p-tau217 separated the two with an area under the curve of 0.93. Plasma p-tau217 may aid the diagnosis of Alzheimer's disease.",
      'brain-aging',
    ],
    [
      'cellular senescence in cancer cells',
      'Doxorubicin induces senescence in breast cancer cells through p53 and p21',
      'Here we investigated therapy-induced senescence in MCF-7 breast cancer cells. Doxorubicin induced senescence-associated beta-galactosidase, p21 and a SASP. Senescent tumour cells resisted apoptosis.',
      'senescence',
    ],
  ])('%s is tangential', (_case, title, abstract, topic) => {
    const j = judge(title, abstract)
    expect(band(j.relevance)).toBe('1-2')
    expect(j.topic as string).toBe(topic)
  })

  test("a disease acronym that names something else (PD for Paget's disease) is not neurodegeneration", () => {
    const abstract =
      "We reviewed 48 patients with Paget's disease of bone (PD) seen at a tertiary centre over ten years. PD was polyostotic in 60% and most had raised alkaline phosphatase. PD is rare in India but should be considered in bone pain with raised alkaline phosphatase."
    expect(band(judge("Does Paget's disease of bone exist in India?", abstract).relevance)).toBe('<1')
    // An acronym the record does not define keeps its usual meaning.
    expect(
      band(
        judge(
          'High-dose estradiol improves cognition for women with AD',
          'Twenty women with AD were randomized to estradiol or placebo for 8 weeks. Estradiol improved verbal memory and attention. Estrogen may benefit women with AD.',
        ).relevance,
      ),
    ).toBe('1-2')
  })

  test('people with dementia as who was studied make a neurodegenerative-disease paper (tangential), even named once', () => {
    const j = judge(
      'Are wandering and agitation equivalent?',
      'OBJECTIVE: We examined whether wandering and agitation are the same concept.\nPARTICIPANTS: Ambulatory residents meeting DSM-IV criteria for dementia (N = 181) were studied.\nRESULTS: Wandering correlated with agitation (r = 0.68, p < 0.001).',
    )
    expect(band(j.relevance)).toBe('1-2')
  })

  test('cognition in older people is cognitive ageing; in postmenopausal or middle-aged women it is not', () => {
    expect(
      band(
        judge(
          'Working memory in people aged 70 and over',
          'We tested working memory in 210 adults aged 70 and over living in the community. Processing speed explained most of the variance in working memory. Cognitive function in this group depends on processing speed.',
        ).relevance,
      ),
    ).toBe('2+')
    expect(
      band(
        judge(
          'Oral estradiol and verbal memory in postmenopausal women',
          'We randomly assigned 120 postmenopausal women aged 45 to 55 to estradiol or placebo for 6 months. Estradiol improved verbal memory scores. Estrogen therapy may benefit memory in recently postmenopausal women.',
        ).relevance,
      ),
    ).not.toBe('2+')
  })

  test("SIRT1 activation in Alzheimer's disease is relevant, filed under nad-sirtuins (a mechanism beats a disease area)", () => {
    const j = judge(
      "SIRT1 activation by resveratrol reduces amyloid pathology in a mouse model of Alzheimer's disease",
      "Sirtuin 1 (SIRT1) is an NAD+-dependent deacetylase. We treated APP/PS1 mice with resveratrol for 12 weeks. SIRT1 activation reduced amyloid-beta plaques and improved memory in the water maze. SIRT1 activation may be a therapeutic strategy for Alzheimer's disease.",
    )
    expect(band(j.relevance)).toBe('2+')
    expect(j.topic).toBe('nad-sirtuins')
    expect(j.studyType).toBe('animal')
  })

  test('a lifespan extension in mice is core geroscience', () => {
    const j = judge(
      'Acarbose extends lifespan and healthspan in genetically heterogeneous mice',
      'Here we report that acarbose fed from 4 months of age extended median lifespan of UM-HET3 mice by 22% in males and 5% in females. Treated mice also had better grip strength and fewer age-related lesions at 22 months. These results identify acarbose as a geroprotective intervention.',
    )
    expect(j.relevance).toBeGreaterThanOrEqual(2.5)
    expect(j.studyType).toBe('animal')
    expect(j.newsworthiness).toBeGreaterThanOrEqual(1)
  })

  test('an epigenetic clock in a cohort is core, filed under epigenetic-clocks', () => {
    const j = judge(
      'Epigenetic age acceleration and mortality in the Framingham cohort',
      'We estimated GrimAge and DunedinPACE epigenetic clocks from blood DNA methylation of 2,500 participants. Each year of epigenetic age acceleration was associated with a 9% higher mortality risk over 12 years of follow-up. Biological age measured by epigenetic clocks predicts survival.',
    )
    expect(j.relevance).toBeGreaterThanOrEqual(2.5)
    expect(j.topic).toBe('epigenetic-clocks')
    expect(j.studyType).toBe('human_observational')
  })

  test('mitophagy in neurodegeneration is filed under mitochondria', () => {
    const j = judge(
      "PINK1-dependent mitophagy protects dopaminergic neurons in Parkinson's disease",
      "We show that PINK1 and Parkin-mediated mitophagy removes damaged mitochondria in dopaminergic neurons of Parkinson's disease mice, and that enhancing mitophagy rescues neuron loss.",
    )
    expect(j.topic).toBe('mitochondria')
    expect(band(j.relevance)).toBe('2+')
  })

  test('a MeSH heading that the abstract contradicts does not make a paper relevant', () => {
    const j = judge(
      'Hepatic lipogenesis under Akt and mTORC1 control',
      'We show that Akt stimulates hepatic SREBP1c and lipogenesis in mice through mTORC1-dependent and independent pathways.',
      { mesh: ['Aging', 'Animals', 'Mice', 'Liver'] },
    )
    expect(j.relevance).toBeLessThan(2)
  })

  test('every rule gives the band it stands for, with most of its probability there', () => {
    const bands: Record<string, string> = {
      core: '2+',
      'ageing in title': '2+',
      'ageing in aim or conclusion': '2+',
      'ageing throughout the abstract': '2+',
      'cognitive ageing': '2+',
      'age-related disease through a core pathway': '2+',
      'ageing in a disease context': '1-2',
      neurodegeneration: '1-2',
      'process as subject': '1-2',
      'dietary regimen for another outcome': '1-2',
      'geriatric medicine': '1-2',
      'indexed as ageing': '1-2',
      'age as one variable': '<1',
      'passing ageing frame': '<1',
      unrelated: '<1',
    }
    expect(Object.keys(DISTRIBUTIONS).sort()).toEqual(Object.keys(bands).sort())
    for (const [rule, p] of Object.entries(DISTRIBUTIONS)) {
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6)
      const expected = p[1] + 2 * p[2] + 3 * p[3]
      const mass = expected < 1 ? p[0] : expected < 2 ? p[1] : p[2] + p[3]
      expect({ rule, band: band(expected), mostly: mass > 0.5 }).toEqual({ rule, band: bands[rule], mostly: true })
    }
    expect(DISTRIBUTIONS.core[1] + 2 * DISTRIBUTIONS.core[2] + 3 * DISTRIBUTIONS.core[3]).toBeGreaterThanOrEqual(2.5)
  })

  test('a dietary-restriction-type regimen for a non-ageing outcome is tangential', () => {
    const j = judge(
      'Time-restricted eating during chemotherapy for breast cancer: a randomized pilot trial',
      'We randomly assigned 60 women receiving chemotherapy for breast cancer to 14-hour time-restricted eating or usual diet for 12 weeks. Time-restricted eating reduced fatigue and improved insulin sensitivity.',
    )
    expect(band(j.relevance)).toBe('1-2')
    expect(j.topic).toBe('dietary-restriction')
    expect(j.studyType).toBe('human_trial')
  })

  test("a review's title says its subject: the mTOR pathway across diseases is tangential; tuberous sclerosis (the disease) is not the pathway", () => {
    const pathway = judge(
      'The mTOR pathway and its role in human genetic diseases',
      "This review summarises how mutations in TSC1, TSC2, PTEN and LKB1 activate mTORC1 in hamartoma syndromes and cancer. We discuss mTOR inhibitors in these diseases and in Alzheimer's disease and diabetes.",
      { publicationTypes: ['Journal Article', 'Review'] },
    )
    expect(pathway.studyType).toBe('review')
    expect(band(pathway.relevance)).toBe('1-2')
    // The same survey of diseases, when the paper is not a review, keeps the old reading: mTOR as a tool in disease.
    const study = judge(
      'The mTOR pathway and its role in human genetic diseases',
      'We sequenced TSC1, TSC2 and PTEN in 120 patients with hamartoma syndromes and cancer. mTORC1 was active in 85% of tumours (p < 0.01). These results show that mTOR activation drives hamartomas and cancer in these patients.',
    )
    expect(band(study.relevance)).toBe('<1')
    const disease = judge(
      'Less common manifestations in TSC',
      'This review describes the rarer renal, pulmonary, dental and skin lesions of tuberous sclerosis complex and how mTOR inhibitors are used for them.',
      { publicationTypes: ['Journal Article', 'Review'] },
    )
    expect(band(disease.relevance)).toBe('<1')
  })

  test('an autophagy review that treats ageing and longevity is relevant, and autophagy has no topic of its own', () => {
    const j = judge(
      'Autophagy in ageing and longevity',
      'Autophagy declines with age in many tissues. In this review we discuss how autophagy genes are required for lifespan extension in worms, flies and mice, and the therapeutic potential of autophagy inducers.',
    )
    expect(band(j.relevance)).toBe('2+')
    expect(j.topic).toBe('other')
    expect(j.studyType).toBe('review')
  })
})

describe('study type: the design the abstract describes', () => {
  test.each([
    [
      'a randomised trial in older adults',
      'Effects of vitamin D supplementation on muscle strength in older adults',
      'In this double-blind trial, 240 adults aged 70 and over were randomly assigned to vitamin D or placebo for 12 months. Vitamin D did not improve grip strength.',
      'human_trial',
    ],
    [
      'a case report',
      'Rapamycin-responsive lymphangioleiomyomatosis in a 45-year-old woman: a case report',
      'A 45-year-old woman presented with dyspnoea and cystic lung disease. Sirolimus stabilised her lung function over two years.',
      'other',
    ],
    [
      'mice plus cells',
      'NAD+ repletion improves muscle function in mdx mice',
      'We treated mdx mice with nicotinamide riboside for 10 weeks and cultured myoblasts in vitro. Muscle NAD+ levels and grip strength improved in treated mice.',
      'animal',
    ],
    [
      'cells differentiated from human donors',
      'Senescence of iPSC-derived neurons from donors of different ages',
      'Neurons differentiated in vitro from induced pluripotent stem cells of 12 donors were cultured for 60 days and assayed for senescence markers in culture.',
      'cells',
    ],
    [
      'worms',
      'Metformin extends lifespan in C. elegans through the lysosomal AMPK pathway',
      'We treated Caenorhabditis elegans with metformin from the first day of adulthood. Treated worms lived 30% longer, an effect lost in aak-2 mutants.',
      'invertebrate',
    ],
    [
      'a genome-wide association meta-analysis',
      'Genome-wide association meta-analysis of human longevity',
      'We combined summary statistics from 11 cohorts of long-lived individuals and identified two loci, APOE and FOXO3, in a genome-wide association meta-analysis of 28,000 cases.',
      'computational',
    ],
    [
      'a review tagged only as a journal article',
      'Autophagy in ageing and longevity',
      'Autophagy declines with age in many tissues. In this review we discuss how autophagy genes are required for lifespan extension in worms, flies and mice, and the therapeutic potential of autophagy inducers.',
      'review',
    ],
    [
      'a prognostic biomarker analysis of trial samples',
      'Baseline interleukin-6 and survival in the ASPREE trial',
      'In a secondary analysis of 4,000 participants of a randomised aspirin trial, baseline plasma interleukin-6 predicted mortality independently of treatment (HR 1.3).',
      'human_observational',
    ],
    [
      "a prognostic analysis of a trial's participants, said in its methods",
      'Cerebrovascular risk and treatment outcome in late-life psychotic depression',
      'OBJECTIVE: To examine whether cerebrovascular risk is associated with treatment outcome of psychotic depression.\nMETHODS: The authors analyzed data from 142 persons who participated in a 12-week randomized controlled trial comparing olanzapine plus sertraline with olanzapine plus placebo.\nRESULTS: Greater cerebrovascular risk was significantly associated with less improvement.',
      'human_observational',
    ],
    [
      'a meta-analysis of trials the authors ran, whatever its title',
      'Changes in bone density explain fewer fractures on antiresorptive therapy',
      'Some antiresorptive agents reduce fracture risk. To examine why, we performed a meta-analysis of all randomized, placebo-controlled trials of antiresorptive agents. A total of 18 trials with 2,415 women were identified. Each 1% increase in spine density was associated with an 8% reduction in fracture risk (P = 0.02).',
      'review',
    ],
    [
      'a trial whose background cites earlier meta-analyses',
      'Tamsulosin for ureteric colic: a randomised, placebo-controlled trial',
      'BACKGROUND: Meta-analyses of previous randomised controlled trials suggested benefit.\nMETHODS: We randomly assigned 1,167 adults to tamsulosin, nifedipine or placebo.\nRESULTS: Stone passage did not differ (p = 0.4).',
      'human_trial',
    ],
    [
      'a cohort with a Mendelian randomization analysis (randomised by genes, not by anyone)',
      'HbA1c and mortality in older adults: a prospective cohort',
      'We followed 5,210 adults aged 60 and over in a prospective cohort for 12 years. Higher HbA1c was associated with higher mortality (HR 1.3, 95% CI 1.1-1.5). A Mendelian randomization analysis supported a causal effect. Glycaemia predicts survival in older adults.',
      'human_observational',
    ],
    [
      'a narrative review that counts a population, not a sample',
      'Assessment and treatment of hot flushes',
      'More than 1 million women reach menopause each year, many of whom will experience hot flushes. It is critical to understand how hot flushes relate to sleep and mood. Growing evidence supports serotonergic antidepressants. There is strong evidence from epidemiological studies that nonhormonal treatments may be important alternatives.',
      'review',
    ],
  ])('%s', (_case, title, abstract, type) => {
    expect(judge(title, abstract).studyType as string).toBe(type)
  })

  test('a paper that makes and characterises an antibody is a methods paper (other), whatever animals it immunised', () => {
    const j = judge(
      'Generation and characterization of monoclonal antibodies against tuberous sclerosis complex 2',
      'We describe the development of a monoclonal antibody specific towards TSC2. Hybridomas were produced from the splenocytes of immunized mice, and one clone recognised recombinant and endogenous TSC2 in Western blots of mouse embryo fibroblasts.',
    )
    expect(j.studyType).toBe('other')
  })

  test('publication types are a hint: a review tag on a paper reporting its own cohort does not make it a review', () => {
    const j = judge(
      'Clinicopathological features of 15 renal tumours with TSC1 mutations',
      'We analysed 15 tumours from 15 patients by immunohistochemistry and sequencing; TSC1 mutations were found in 12 (80%, p < 0.01).',
      { publicationTypes: ['Journal Article', 'Review'] },
    )
    expect(j.studyType).toBe('human_observational')
  })
})
