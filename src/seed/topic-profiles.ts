/**
 * The eleven topic profiles: study-type mix, outcomes, tissues, hallmarks, opening sentences and
 * MeSH headings of papers filed under each topic.
 */
import { cap } from './capitalize'
import { keys, profile, type TopicProfile, type TopicSlug } from './topics'

const P = 'phenotype:',
  B = 'biomarker:',
  D = 'disease:'

export const profiles: Record<TopicSlug, TopicProfile> = {
  senescence: profile('senescence', {
    label: 'cellular senescence',
    studyTypes: {
      animal: 30,
      cells: 25,
      human_trial: 6,
      human_observational: 8,
      invertebrate: 2,
      computational: 6,
      review: 15,
      other: 4,
    },
    outcomes: `
      ${B}senescent-cell-burden ${B}p16ink4a-expression ${B}sa-beta-gal ${B}gammah2ax-foci ${B}lamin-b1-loss
      ${B}il-6-level ${B}frailty-index ${P}physical-function-decline ${P}healthspan ${P}lifespan
      ${D}MESH:D054990 ${D}MESH:D010003 ${B}gdf15-level ${P}grip-strength
    `,
    tissues: `
      UBERON:0002048 UBERON:0002113 UBERON:0002107 UBERON:0001013 UBERON:0002097 UBERON:0001134 UBERON:0002371
      UBERON:0000947 UBERON:0001066
    `,
    hallmarks: 'cellular-senescence altered-intercellular-communication',
    backgrounds: [
      () =>
        'Senescent cells accumulate in aged tissues and secrete a pro-inflammatory senescence-associated secretory ' +
        'phenotype (SASP) that impairs regeneration.',
      (s) =>
        `Clearing senescent cells extends healthspan in mice, but how ${s.gene} shapes senescent cell survival in ` +
        `vivo remains unclear.`,
      (s) =>
        `${cap(s.hallmark)} is a hallmark of aging that couples persistent DNA damage signalling to chronic tissue ` +
        `dysfunction.`,
      (s) =>
        `Senolytic drugs such as ${s.intervention} selectively kill senescent cells by disabling their pro-survival ` +
        `networks.`,
    ],
    mesh: ['Cellular Senescence', 'Senotherapeutics', 'Senescence-Associated Secretory Phenotype'],
    keywords: ['senescence', 'SASP', 'senolytics', 'p16INK4a', 'p21', 'senescent cells'],
  }),
  'epigenetic-clocks': profile('epigenetic-clocks', {
    label: 'epigenetic aging',
    studyTypes: {
      human_observational: 40,
      computational: 25,
      human_trial: 8,
      animal: 8,
      cells: 4,
      review: 10,
      other: 3,
      invertebrate: 0.3,
    },
    outcomes: `
      ${B}horvath-clock ${B}hannum-clock ${B}phenoage ${B}grimage ${B}dunedinpace ${B}skin-and-blood-clock
      ${B}epigenetic-age ${B}epigenetic-age-acceleration ${P}mortality ${P}frailty ${B}phenotypic-age
      ${B}biological-age ${D}MESH:D002318 ${D}MESH:D003704
    `,
    tissues: 'UBERON:0000178 UBERON:0000178 UBERON:0002097 UBERON:0002107 UBERON:0000955 UBERON:0001134',
    hallmarks: 'epigenetic-alterations',
    backgrounds: [
      () =>
        'DNA methylation clocks estimate biological age from CpG methylation and predict morbidity and mortality ' +
        'beyond chronological age.',
      (s) =>
        `${cap(s.hallmark)} accumulate with age, yet it is unclear which of them epigenetic clocks actually capture.`,
      () =>
        'Second-generation clocks such as GrimAge and DunedinPACE were trained on physiological decline rather than ' +
        'calendar age.',
      (s) => `Whether interventions like ${s.intervention} slow epigenetic aging in humans is debated.`,
    ],
    mesh: ['DNA Methylation', 'Epigenesis, Genetic', 'Epigenomics'],
    keywords: ['epigenetic clock', 'DNA methylation', 'biological age', 'age acceleration', 'CpG'],
  }),
  'mtor-rapamycin': profile('mtor-rapamycin', {
    label: 'mTOR signalling',
    studyTypes: {
      animal: 35,
      invertebrate: 12,
      cells: 15,
      human_trial: 10,
      human_observational: 4,
      computational: 4,
      review: 14,
      other: 4,
    },
    outcomes: `
      ${P}lifespan ${P}healthspan ${P}HP:0001952 ${P}HP:0000855 ${P}immunosenescence ${B}frailty-index
      ${P}cardiac-hypertrophy ${P}diastolic-dysfunction ${D}periodontitis ${B}igf-1-level ${P}cognitive-decline
    `,
    tissues: 'UBERON:0002107 UBERON:0000948 UBERON:0001134 UBERON:0002113 UBERON:0001898 UBERON:0000992',
    hallmarks: 'deregulated-nutrient-sensing disabled-macroautophagy',
    backgrounds: [
      () => 'Rapamycin is the most robust pharmacological intervention known to extend lifespan in mice.',
      (s) => `Inhibition of mTORC1 by ${s.intervention} mimics aspects of dietary restriction and activates autophagy.`,
      (s) =>
        `${cap(s.hallmark)} is a conserved driver of aging, and ${s.gene} sits at the centre of the nutrient-sensing ` +
        `network.`,
      () =>
        'Chronic mTORC2 inhibition causes metabolic side effects that limit the use of rapalogs in healthy older ' +
        'people.',
    ],
    mesh: ['Sirolimus', 'TOR Serine-Threonine Kinases', 'Mechanistic Target of Rapamycin Complex 1'],
    keywords: ['mTOR', 'rapamycin', 'mTORC1', 'rapalogs', 'autophagy'],
  }),
  reprogramming: profile('reprogramming', {
    label: 'partial reprogramming',
    studyTypes: {
      animal: 35,
      cells: 35,
      computational: 6,
      review: 16,
      other: 5,
      invertebrate: 1,
      human_observational: 1,
      human_trial: 0.2,
    },
    outcomes: `
      ${B}epigenetic-age ${P}lifespan ${P}visual-impairment ${P}skin-aging ${P}muscle-atrophy
      ${B}transcriptomic-clock ${B}frailty-index ${P}hair-greying ${D}hutchinson-gilford-progeria-syndrome
    `,
    tissues: 'UBERON:0000966 UBERON:0002097 UBERON:0002107 UBERON:0001134 UBERON:0002113 UBERON:0002421',
    hallmarks: 'epigenetic-alterations stem-cell-exhaustion',
    backgrounds: [
      () =>
        'Transient expression of the Yamanaka factors can reset age-associated epigenetic marks without erasing cell ' +
        'identity.',
      (s) => `${cap(s.hallmark)} and loss of epigenetic information have been proposed as a root cause of aging.`,
      (s) =>
        `How ${s.gene} expression restores youthful transcriptional programmes during partial reprogramming is ` +
        `poorly understood.`,
      () => 'Uncontrolled reprogramming causes teratomas, so safe delivery remains the main obstacle to clinical use.',
    ],
    mesh: ['Cellular Reprogramming', 'Induced Pluripotent Stem Cells', 'Epigenesis, Genetic'],
    keywords: ['partial reprogramming', 'OSKM', 'rejuvenation', 'Yamanaka factors', 'epigenetic memory'],
  }),
  'nad-sirtuins': profile('nad-sirtuins', {
    label: 'NAD+ metabolism',
    studyTypes: {
      animal: 30,
      cells: 15,
      human_trial: 18,
      invertebrate: 8,
      human_observational: 6,
      review: 15,
      computational: 4,
      other: 3,
    },
    outcomes: `
      ${B}nad-plus-level ${P}HP:0000855 ${P}grip-strength ${B}vo2max ${B}six-minute-walk-distance ${P}lifespan
      ${P}healthspan ${B}mtdna-copy-number ${P}arterial-stiffness ${P}endothelial-dysfunction
      ${P}accelerated-aging
    `,
    tissues: 'UBERON:0001134 UBERON:0002107 UBERON:0000948 UBERON:0000955 UBERON:0001013 UBERON:0000178',
    hallmarks: 'mitochondrial-dysfunction deregulated-nutrient-sensing genomic-instability',
    backgrounds: [
      () => 'Tissue NAD+ levels fall with age, partly through increased consumption by CD38 and PARP enzymes.',
      (s) =>
        `Sirtuins such as ${s.gene} require NAD+ as a co-substrate, linking cellular energy state to ${s.pathway}.`,
      (s) =>
        `NAD+ precursors including ${s.intervention} raise NAD+ in rodents, but their benefits in older humans are ` +
        `uncertain.`,
      (s) => `${cap(s.hallmark)} has been tied to declining NAD+ availability in several aged tissues.`,
    ],
    mesh: ['NAD', 'Sirtuins', 'Sirtuin 1'],
    keywords: ['NAD+', 'sirtuins', 'NMN', 'nicotinamide riboside', 'CD38'],
  }),
  mitochondria: profile('mitochondria', {
    label: 'mitochondrial function',
    studyTypes: {
      animal: 28,
      cells: 20,
      invertebrate: 14,
      human_trial: 10,
      human_observational: 8,
      review: 12,
      computational: 5,
      other: 3,
    },
    outcomes: `
      ${B}mtdna-copy-number ${B}8-oxo-dg ${B}vo2max ${P}HP:0001324 ${B}six-minute-walk-distance ${P}lifespan
      ${P}neurodegeneration ${D}MESH:D010300 ${P}grip-strength ${P}HP:0012378
    `,
    tissues: 'UBERON:0001134 UBERON:0000948 UBERON:0000955 UBERON:0002107 UBERON:0002113',
    hallmarks: 'mitochondrial-dysfunction',
    backgrounds: [
      (s) =>
        `${cap(s.hallmark)} is a hallmark of aging that reduces oxidative capacity and increases reactive oxygen ` +
        `species.`,
      (s) => `Impaired ${s.pathway} allows damaged mitochondria to accumulate in aged post-mitotic tissues.`,
      (s) => `${s.gene} coordinates mitochondrial quality control, and its activity declines with age.`,
      () =>
        'Mitochondrial DNA mutations and reduced respiratory chain activity are consistent features of aged skeletal ' +
        'muscle.',
    ],
    mesh: ['Mitochondria', 'Mitophagy', 'Oxidative Stress'],
    keywords: ['mitochondria', 'mitophagy', 'oxidative phosphorylation', 'ROS', 'urolithin A'],
  }),
  'dietary-restriction': profile('dietary-restriction', {
    label: 'dietary restriction',
    studyTypes: {
      animal: 30,
      invertebrate: 15,
      human_trial: 18,
      human_observational: 10,
      cells: 5,
      review: 14,
      computational: 3,
      other: 3,
    },
    outcomes: `
      ${P}lifespan ${P}healthspan ${B}igf-1-level ${B}fasting-glucose ${B}fasting-insulin ${B}homa-ir
      ${P}visceral-adiposity ${P}HP:0000855 ${B}dunedinpace ${B}frailty-index ${P}reproductive-aging
    `,
    tissues: 'UBERON:0002107 UBERON:0001347 UBERON:0001134 UBERON:0001898 UBERON:0000160',
    hallmarks: 'deregulated-nutrient-sensing disabled-macroautophagy',
    backgrounds: [
      () => 'Reducing food intake without malnutrition extends lifespan in organisms from yeast to primates.',
      (s) => `${cap(s.intervention)} engages ${s.pathway} and lowers circulating growth factors.`,
      (s) => `${cap(s.hallmark)} links diet to aging through conserved pathways that converge on ${s.gene}.`,
      () =>
        'Which dietary components mediate the benefits of restriction, and whether they translate to humans, remains ' +
        'debated.',
    ],
    mesh: ['Caloric Restriction', 'Fasting', 'Diet'],
    keywords: ['caloric restriction', 'fasting', 'diet', 'nutrient sensing', 'time-restricted eating'],
  }),
  'glp-1': profile('glp-1', {
    label: 'GLP-1 receptor agonism',
    studyTypes: {
      human_observational: 30,
      human_trial: 28,
      animal: 15,
      cells: 4,
      review: 13,
      computational: 5,
      other: 4,
      invertebrate: 0.2,
    },
    outcomes: `
      ${B}hba1c ${P}visceral-adiposity ${D}MESH:D002318 ${D}MESH:D003704 ${D}MESH:D003924 ${D}MESH:D009765
      ${P}mortality ${D}MESH:D000544 ${D}MESH:D006333 ${D}MESH:D051436 ${D}MESH:D065626
      ${B}appendicular-lean-mass
    `,
    tissues: `
      UBERON:0000955 UBERON:0001013 UBERON:0001264 UBERON:0000948 UBERON:0002113 UBERON:0002107 UBERON:0001981
    `,
    hallmarks: 'deregulated-nutrient-sensing chronic-inflammation',
    backgrounds: [
      () =>
        'GLP-1 receptor agonists cause substantial weight loss and reduce cardiovascular events in people with ' +
        'obesity.',
      (s) => `Beyond glycaemic control, ${s.intervention} may act on ${s.hallmark} and other drivers of aging.`,
      (s) =>
        `${s.gene} is expressed in the brain, heart and kidney, suggesting effects that extend beyond weight loss.`,
      () =>
        'Observational data hint that incretin-based drugs lower the risk of dementia, but confounding is a concern.',
    ],
    mesh: ['Glucagon-Like Peptide-1 Receptor Agonists', 'Glucagon-Like Peptide-1 Receptor', 'Obesity'],
    keywords: ['GLP-1', 'semaglutide', 'tirzepatide', 'incretin', 'obesity'],
  }),
  inflammaging: profile('inflammaging', {
    label: 'inflammaging',
    studyTypes: {
      human_observational: 25,
      animal: 25,
      cells: 15,
      human_trial: 8,
      computational: 7,
      review: 14,
      other: 4,
      invertebrate: 1,
    },
    outcomes: `
      ${B}c-reactive-protein-level ${B}il-6-level ${B}tnf-alpha-level ${P}immunosenescence ${P}thymic-involution
      ${B}clonal-hematopoiesis-of-indeterminate-potential ${D}MESH:D050197 ${P}frailty ${D}MESH:D002318
      ${D}periodontitis ${D}MESH:D001172 ${P}mortality
    `,
    tissues: `
      UBERON:0000178 UBERON:0002106 UBERON:0002371 UBERON:0002370 UBERON:0001013 UBERON:0000029 UBERON:0000947
    `,
    hallmarks: 'chronic-inflammation altered-intercellular-communication dysbiosis',
    backgrounds: [
      () =>
        'Aging is accompanied by chronic, low-grade sterile inflammation, termed inflammaging, that predicts frailty ' +
        'and mortality.',
      (s) => `${cap(s.hallmark)} is driven in part by innate immune sensing of self DNA through ${s.pathway}.`,
      (s) =>
        `Circulating ${s.gene} rises with age and is among the strongest inflammatory predictors of functional ` +
        `decline.`,
      (s) =>
        `Anti-inflammatory strategies such as ${s.intervention} could blunt inflammaging, but they risk impairing ` +
        `host defence.`,
    ],
    mesh: ['Inflammation', 'Cytokines', 'Interleukin-6'],
    keywords: ['inflammaging', 'inflammation', 'cytokines', 'immunosenescence', 'NLRP3'],
  }),
  'brain-aging': profile('brain-aging', {
    label: 'brain aging',
    studyTypes: {
      human_observational: 28,
      animal: 28,
      computational: 10,
      cells: 8,
      human_trial: 7,
      invertebrate: 3,
      review: 12,
      other: 4,
    },
    interventions: keys(
      'intervention',
      `
      exercise aerobic-exercise lithium young-plasma-transfusion PUBCHEM.COMPOUND:56843331 mediterranean-diet
      klotho-supplementation hyperbaric-oxygen-therapy
    `,
    ),
    outcomes: `
      ${P}cognitive-decline ${P}memory-impairment ${P}brain-atrophy ${P}synaptic-loss ${P}neurodegeneration
      ${B}p-tau217 ${B}plasma-gfap ${B}neurofilament-light-chain-level ${B}brain-age-gap ${D}MESH:D000544
      ${D}MESH:D003704 ${D}MESH:D010300 ${B}amyloid-beta-42-40-ratio
    `,
    tissues: 'UBERON:0000955 UBERON:0002421 UBERON:0000956 UBERON:0001898 UBERON:0002038 UBERON:0002037',
    hallmarks: 'loss-of-proteostasis chronic-inflammation mitochondrial-dysfunction',
    backgrounds: [
      () =>
        'Age is the strongest risk factor for neurodegenerative disease, yet cognitive aging varies widely between ' +
        'individuals.',
      (s) => `Microglial activation and ${s.pathway} increase in the aged brain and may precede synapse loss.`,
      (s) => `${s.gene} has emerged as a key regulator of neuronal resilience in the aging hippocampus.`,
      (s) => `${cap(s.hallmark)} in neurons and glia is thought to underlie age-related cognitive decline.`,
    ],
    mesh: ['Brain', 'Cognition', 'Cognitive Aging', 'Neurodegenerative Diseases'],
    keywords: ['brain aging', 'cognition', 'neurodegeneration', 'microglia', 'hippocampus'],
  }),
  other: profile('other', {
    label: 'healthy aging',
    studyTypes: {
      human_observational: 35,
      human_trial: 12,
      animal: 12,
      cells: 8,
      computational: 8,
      review: 12,
      other: 13,
      invertebrate: 2,
    },
    outcomes: `
      ${P}frailty ${P}mortality ${D}hip-fracture ${D}MESH:D055948 ${D}MESH:D010024 ${D}MESH:D034381
      ${D}MESH:D002386 ${P}physical-function-decline ${P}mobility-disability ${P}gait-speed
      ${B}short-physical-performance-battery ${B}timed-up-and-go-test ${D}MESH:D003865 ${D}MESH:D029424
      ${D}MESH:D009369 ${B}bone-mineral-density
    `,
    tissues: `
      UBERON:0001134 UBERON:0002371 UBERON:0002097 UBERON:0000178 UBERON:0000948 UBERON:0002113 UBERON:0002048
    `,
    hallmarks: `
      telomere-attrition genomic-instability dysbiosis altered-intercellular-communication loss-of-proteostasis
    `,
    backgrounds: [
      () =>
        'The number of adults aged 80 years or older is projected to triple by 2050, increasing the burden of ' +
        'multimorbidity.',
      () => 'Functional decline in older adults is common, costly and often unrecognised in routine care.',
      (s) => `${cap(s.hallmark)} has been proposed to contribute to age-related loss of resilience.`,
      (s) => `Evidence on ${s.intervention} in older populations is limited and largely observational.`,
    ],
    mesh: ['Geriatric Assessment', 'Healthy Aging', 'Independent Living'],
    keywords: ['older adults', 'geriatrics', 'healthy aging', 'functional decline', 'multimorbidity'],
  }),
}
