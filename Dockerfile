# Pageblocks in a container: built in one stage, run in a slim one as a
# non-root user. `docker build -t pageblocks .`; see compose.yaml to run it on
# PostgreSQL with an S3-compatible bucket.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Dependencies first (cached while they do not change); the build needs the sources.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build && mkdir -p web/dist && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/docs ./docs
COPY --from=build --chown=node:node /app/web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The service itself is PID 1's only child: SIGTERM reaches it directly.
# A young generation of 4 MB semi-spaces: see docs/decisions.md, "Performance".
CMD ["node", "--max-semi-space-size=4", "dist/main.js"]
