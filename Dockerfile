# Geroscope in one image: Bun runs the TypeScript sources as they are (no build step), over
# production dependencies only. Every setting comes from the environment (README, "Configuration");
# migrations run at start-up; the embedded database (when DATABASE_URL is unset) lives in /data.
#
#   docker build -t geroscope .
#   docker run -p 3000:3000 -e APP_SECRET=... -v geroscope-data:/data geroscope
#
# test/deploy/dockerfile.test.ts lints this file and runs its start command the way the image does;
# .ci/image-test builds and runs it, on local stand-ins for the two base images (the build arguments).

# The two base images, official by default.
ARG NODE_IMAGE=node:24-bookworm-slim
ARG BUN_IMAGE=oven/bun:1.4.5-slim

# Production dependencies, installed from the lockfile with npm (the lockfile is npm's), patches applied.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${BUN_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY drizzle ./drizzle
COPY src ./src
COPY scripts/cli.ts ./scripts/cli.ts
# The image's own user owns the data dir only: the code stays read-only to the service.
RUN mkdir -p /data && chown bun:bun /data
USER bun
VOLUME ["/data"]
EXPOSE 3000
# Ready, not just up: the database answers and its migrations are applied (GET /readyz).
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) drains requests, flushes counters and exits 0 within SHUTDOWN_TIMEOUT_MS.
STOPSIGNAL SIGTERM
CMD ["bun", "src/index.ts"]
