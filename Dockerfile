# Diamond Hand in a container. Not built here (this machine has no Docker engine); written to be
# correct by reading. See docs/deploy.md ("Docker") for how to run it.
#
#   docker build -t diamond-hand .
#   docker run -d --name dh -p 127.0.0.1:3000:3000 --env-file /etc/diamond-hand/env \
#     -v dh-data:/app/data diamond-hand
#   docker exec -it dh node dist/scripts/operator.js add you@example.com --create
#
# Node 24, the active LTS (supported to April 2028), which CI runs too; 22.22.2+ also works
# (package.json `engines`). better-sqlite3 13 (Node-API) is what makes 24 safe: 12 aborted Node 24
# when V8 collected a statement (decision 0058).

# --- build: every dependency, then the production build (client, SSR, server bundles) ---------
FROM node:24-slim AS build
WORKDIR /app
# Native modules (better-sqlite3, argon2) download prebuilt binaries; these are the fallback
# when none matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- deps: only what the server needs at run time ---------------------------------------------
FROM build AS deps
RUN npm ci --omit=dev --no-audit --no-fund

# --- runtime ----------------------------------------------------------------------------------
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
# dist/ holds the server and the operator's commands (dist/scripts/operator.js, audit-verify.js,
# db-migrate.js): one image, run as one unprivileged user, for serving and for managing operators.
COPY --from=build /app/dist ./dist
# data/ holds the SQLite list and the .eml outbox when no DATABASE_URL / SMTP_URL is set: mount a
# volume there. The image's `node` user (uid 1000) owns it; nothing else is writable, and nothing
# runs as root: `docker exec` runs as this user too.
RUN mkdir -m 700 data && chown node:node data
USER node
EXPOSE 3000
# /healthz: the process answers (liveness). Load balancers should use /readyz (the database too).
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server drains and exits on SIGTERM within 10 s; `docker stop` waits 10 s by default, so
# stop with `docker stop -t 20` (or stop_grace_period: 20s in compose).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
