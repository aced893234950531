# One image for every role; docker-compose picks the role with the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY observability/package.json observability/
COPY eventstore/package.json eventstore/
COPY projections/package.json projections/
COPY workers/package.json workers/
COPY command-api/package.json command-api/
COPY cli/package.json cli/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
# Where docker-compose.yml mounts the uploads volume: a new volume takes this directory's owner.
RUN mkdir -p /uploads && chown node:node /uploads
USER node
EXPOSE 3000
ENTRYPOINT ["node", "cli/bin/lending.js"]
CMD ["start"]
