/** Where an entity's identifiers live: each kind of id linked to its database's record page. */
const DATABASES: Record<string, { name: string; url: (id: string) => string }> = {
  ncbigene: { name: 'NCBI Gene', url: (id) => `https://www.ncbi.nlm.nih.gov/gene/${id}` },
  hgnc: {
    name: 'HGNC',
    url: (id) =>
      `https://www.genenames.org/data/gene-symbol-report/#!/hgnc_id/${id.startsWith('HGNC:') ? id : `HGNC:${id}`}`,
  },
  pubchem: { name: 'PubChem', url: (id) => `https://pubchem.ncbi.nlm.nih.gov/compound/${id}` },
  chebi: {
    name: 'ChEBI',
    url: (id) => `https://www.ebi.ac.uk/chebi/searchId.do?chebiId=${id.startsWith('CHEBI:') ? id : `CHEBI:${id}`}`,
  },
  taxon: { name: 'NCBI Taxonomy', url: (id) => `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${id}` },
  mesh: { name: 'MeSH', url: (id) => `https://meshb.nlm.nih.gov/record/ui?ui=${id}` },
  uniprot: { name: 'UniProt', url: (id) => `https://www.uniprot.org/uniprotkb/${id}` },
  go: { name: 'Gene Ontology', url: (id) => `https://amigo.geneontology.org/amigo/term/${id}` },
  drugbank: { name: 'DrugBank', url: (id) => `https://go.drugbank.com/drugs/${id}` },
}

/** An identifier as { database name, id, link } (link null for kinds without a known record page). */
export function identifier(kind: string, id: string): { name: string; id: string; url: string | null } {
  const db = DATABASES[kind.toLowerCase()]
  return db
    ? { name: db.name, id, url: db.url(encodeURIComponent(id).replace(/%3A/g, ':')) }
    : { name: kind, id, url: null }
}

export const doiUrl = (doi: string) => `https://doi.org/${doi.split('/').map(encodeURIComponent).join('/')}`

export const entitySitePath = (type: string, key: string) =>
  `/entities/${encodeURIComponent(type)}/${encodeURIComponent(key)}`
