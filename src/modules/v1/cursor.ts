/**
 * Moved to src/http/cursor.ts: the admin interface pages and parses with it too, so it lives below
 * both. This re-export keeps the Data API's imports (under concurrent rewrite) working; new code
 * imports from src/http.
 */
export * from '../../http/cursor'
