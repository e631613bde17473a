# syntax=docker/dockerfile:1
# Quire's image: `docker build -t quire .` from the repository root (docs/deploy.md).
# Written and checked on a machine without a Docker engine: test/unit/deploy.test.ts checks this file,
# nobody has built it yet.

# Debian (glibc), not Alpine: libsql and @napi-rs/canvas ship prebuilt binaries for glibc on x64 and arm64.
# The tag is pinned; pin the digest too (`node:…@sha256:…`) for byte-for-byte repeatable builds.
# Node 24 LTS on Debian trixie (Quire needs Node 22.13+; package.json engines); trixie also brings
# LibreOffice 25.2 and tesseract 5.5 (bookworm: 7.4 and 5.3).
ARG NODE_IMAGE=node:24.22.3-trixie-slim

# Production dependencies only. --ignore-scripts is safe here: the native packages arrive as prebuilt
# per-platform optional dependencies, and the one production package with an install script is
# tesseract.js, whose postinstall only prints a banner (test/unit/deploy.test.ts checks this list).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# Every dependency, to compile src/ into dist/. `prepare` would build before src/ is copied, so the
# install skips scripts and the build runs explicitly (esbuild's postinstall is for tsx, not tsc).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# Optional tools Quire uses when they are on PATH: LibreOffice Writer paginates DOCX/DOC/HTML
# faithfully (Calc is not used at run time, only by the tests), the tesseract CLI is faster than
# tesseract.js; poppler-utils (pdftotext, pdfinfo) is for operators checking a document by hand.
# Liberation (2 in trixie's fonts-liberation; Arial Narrow's stand-in, Liberation 1, is packaged apart
# as fonts-liberation-sans-narrow), Carlito and Caladea are metric-compatible with Arial/Times/Courier, Calibri and Cambria, so LibreOffice breaks pages where Word does. tini is PID 1: it forwards SIGTERM to node and
# reaps LibreOffice's orphaned children. Debian versions are not pinned: trixie only takes fixes.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tini \
      libreoffice-writer-nogui \
      tesseract-ocr tesseract-ocr-eng \
      poppler-utils \
      fonts-dejavu-core fonts-liberation fonts-liberation-sans-narrow fonts-crosextra-carlito fonts-crosextra-caladea \
 && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    QUIRE_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# src/runtime/version.ts reads the version from package.json beside dist/.
COPY package.json ./
# The embedded database and blobs (one-machine mode); unused with DATABASE_URL and an s3:// store.
RUN mkdir -p /data && chown node:node /data
# The node user (uid 1000) comes with the base image.
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness of `serve`; `worker` has no HTTP port, so deploy/compose.yaml gives workers their own check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js", "serve"]
