/**
 * The service's entry point on Deno (`npm run start:deno`): the same app, configuration and
 * lifecycle as src/index.ts; src/platform/ serves it with Deno.serve and hashes passwords with
 * hash-wasm's argon2id there (the same PHC strings Bun.password writes).
 */
import { runService } from './lifecycle/start.ts'

await runService()
