/**
 * The service's entry point on Bun (`npm start`); src/deno.ts is the same service on Deno. Start-up
 * and the graceful shutdown live in src/lifecycle/start.ts.
 */
import { runService } from './lifecycle/start'

await runService()
