# syntax=docker/dockerfile:1
# coinop's container image: the arcade API, the player sign-in service and the web app in one
# process, run as a non-root user, its data in a volume. docs/operating/container.md explains it.
#
#   docker build -t coinop .
#   docker run -p 8080-8082:8080-8082 -v coinop-data:/var/lib/coinop coinop

# The image both stages start from. Override it with --build-arg NODE_IMAGE=... for a mirror, a
# pinned digest, or a locally built stand-in (scripts/container/local-node-image.sh).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: compile every workspace, then pack the ones the server needs at run time -----------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# .dockerignore keeps node_modules, build output and local data out of the context.
COPY . .
# npm ci runs the root `prepare` script, which is the build (scripts/build.mjs: contracts, server,
# SDK bundle, web app): building twice would cost half a minute for nothing. npm's download cache outlives the
# build, so a rebuild after a source change downloads nothing again.
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci --no-audit --no-fund
# The workspaces the server needs at run time, packed as npm would publish them.
ARG COINOP_PACKAGES="packages/protocol packages/core packages/contracts packages/server"
RUN mkdir /pack \
 && npm pack --pack-destination /pack $(printf -- '--workspace=%s ' $COINOP_PACKAGES) \
 && ls -l /pack

# --- runtime: the packed tarballs installed as an operator would, nothing else -----------------
FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it forwards SIGTERM to coinop, which drains its listeners and closes the
# database, and it reaps any child coinop leaves behind.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
# A fixed uid and gid, so that a host directory or a secret file can be given to this user.
RUN groupadd --gid 10001 coinop \
 && useradd --no-log-init --uid 10001 --gid coinop --home-dir /var/lib/coinop \
      --shell /usr/sbin/nologin coinop \
 && mkdir -p /var/lib/coinop \
 && chown coinop:coinop /var/lib/coinop
WORKDIR /app
RUN --mount=type=bind,from=build,source=/pack,target=/tmp/pack \
    --mount=type=cache,target=/root/.npm,sharing=locked \
    npm install --omit=dev --no-audit --no-fund /tmp/pack/*.tgz \
 && /app/node_modules/.bin/coinop --version

ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH \
    COINOP_HOST=0.0.0.0 \
    COINOP_DATA_DIR=/var/lib/coinop
# The embedded database (without DATABASE_URL), and the generated admin token and secrets key
# when the operator gives none.
VOLUME /var/lib/coinop
# API, player sign-in service, web app (COINOP_API_PORT, COINOP_AUTH_PORT, COINOP_WEB_PORT).
EXPOSE 8080 8081 8082
USER coinop:coinop

# Ready: the API answers and its database has exactly this code's migrations. Slim images have
# no curl, so Node's fetch asks; any answer but 2xx, or none within 4 s, is unhealthy.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.COINOP_API_PORT || 8080) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--", "coinop"]
CMD ["serve"]
