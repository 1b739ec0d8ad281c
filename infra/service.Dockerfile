# syntax=docker/dockerfile:1
# The image of one process: SERVICE is its folder under services/ (backoffice, member or
# aggregation-worker), PORT the port it listens on. Build from the repository root (the pnpm
# workspace), as docker-compose.yml does:
#   docker build -f infra/service.Dockerfile --build-arg SERVICE=member --build-arg PORT=3002 .
FROM node:20-bookworm-slim

# pnpm from npm, pinned to package.json's packageManager (corepack's signature check fails
# against some registries).
RUN npm install -g pnpm@10.33.0

WORKDIR /app
COPY . .
# devDependencies stay: the services run their TypeScript through tsx, a root devDependency.
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile --store-dir /pnpm/store

# Declared after the install, so the three images share every layer up to here.
ARG SERVICE
ARG PORT
# A missing or unknown service fails the build instead of giving an image that cannot start.
RUN test -n "$PORT" && test -f "services/$SERVICE/package.json"

# pnpm runs the start script through this shell; bash execs the one command, so SIGTERM reaches
# tsx and the process drains and closes its pools (under sh the signal stops at the shell).
ENV NODE_ENV=production \
    npm_config_script_shell=/bin/bash \
    npm_config_update_notifier=false

WORKDIR /app/services/${SERVICE}
USER node
EXPOSE ${PORT}
CMD ["pnpm", "start"]
