/** The fields of a Europe PMC search record (core; lite where noted) that Geroscope reads. */
export type EuropePmcRecord = {
  id?: string
  source?: string
  pmid?: string
  doi?: string
  title?: string
  authorString?: string
  journalTitle?: string // lite
  journalInfo?: { journal?: { title?: string } }
  bookOrReportDetails?: { publisher?: string }
  firstPublicationDate?: string
  firstIndexDate?: string
  pubType?: string // lite: "journal article; review"
  pubTypeList?: { pubType?: string[] | string }
  license?: string
  abstractText?: string
  meshHeadingList?: {
    meshHeading?: Array<{
      descriptorName?: string
      majorTopic_YN?: string
      meshQualifierList?: { meshQualifier?: Array<{ qualifierName?: string; majorTopic_YN?: string }> }
    }>
  }
  keywordList?: { keyword?: string[] }
  chemicalList?: { chemical?: Array<{ name?: string; registryNumber?: string }> }
}
