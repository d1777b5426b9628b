# syntax=docker/dockerfile:1
# Platform Core's container image (README: Containers):
#   docker build -t platform-core .
#   docker run -p 8080:8080 -v platform-core-data:/data platform-core
#
# scripts/check-container.sh performs these steps on a machine without a container engine (CI):
# it reads this file, so keep to the subset it understands: one instruction per line (or `\`
# continuations), FROM … AS <stage>, WORKDIR, COPY [--from=<stage>] [--chown=…], RUN, ENV
# (KEY=value pairs), USER, VOLUME, EXPOSE, HEALTHCHECK [options] CMD <shell command>, and CMD as
# a JSON array. A `# check-container: <word>` line applies to the next instruction:
#   skip      not run by the check (e.g. apt-get: the check machine has the packages)
#   deps      the dependency install, which the check may take from an existing node_modules
#             of the same lockfile and Node (--reuse-node-modules) instead of compiling again

# Node 20: better-sqlite3 12, which this Node loads, is compiled in the build stage.
ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS build
# node-gyp's tools, for when no prebuilt better-sqlite3 binary can be downloaded.
# check-container: skip
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/sqlite-addon.js scripts/
# Install scripts off (`prepare` would build before the sources are here); then the native
# addons this Node loads (scripts/sqlite-addon.js): better-sqlite3 12, as its own install script
# would build it (package.json "allowScripts" denies that script so that Node 22+ does not
# compile it), and the sealed build of the same sources that app SQL runs on.
# check-container: deps
RUN npm ci --ignore-scripts && node scripts/sqlite-addon.js
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. No scripts: `prepare` would run tsc (a dev dependency), and the
# native addon compiled in the build stage is copied below rather than compiled again.
RUN npm ci --omit=dev --ignore-scripts
# check-container: skip
RUN npm cache clean --force
COPY --from=build /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node \
  node_modules/better-sqlite3/build/Release/
COPY --from=build /app/node_modules/.app-sqlite/ node_modules/.app-sqlite/
COPY --from=build /app/dist dist/
COPY bin bin/
COPY apps apps/
# The data directory (SQLite files, the initial admin password, hooks), owned by the user that
# runs the server; the check creates the VOLUME directories itself.
# check-container: skip
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME /data
EXPOSE 8080
# The image has no curl: Node's fetch asks /readyz (200 while the database answers).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz') \
    .then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"
CMD ["node", "bin/platform-core.js", "serve"]
