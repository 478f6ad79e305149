/**
 * Checks real responses against the schemas the service itself serves in /api/v1/openapi.json,
 * so the document and the code cannot drift apart unnoticed.
 */
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>
  components?: object
}

export function responseValidator(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'doc', components: doc.components ?? {} })
  return (path: string, status: number, body: unknown, method: 'get' | 'post' = 'get'): string[] => {
    const operation = doc.paths[path]?.[method]
    if (!operation) return [`the document has no ${method.toUpperCase()} ${path}`]
    const response = operation.responses[String(status)]
    const schema = response?.content?.['application/json']?.schema
    if (!schema) return [`the document has no ${status} JSON response for ${method.toUpperCase()} ${path}`]
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'))
    const validate = ajv.compile(rewritten)
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}
