# Zapdesk's container image. The build steps live in scripts/build-image.sh, which CI also runs in a
# clean copy of the checkout (scripts/check-image-build.sh), so this recipe is tested where no
# container daemon runs. Bun's version is the one package.json pins ("bun": "1.4.5").
#
#   docker build -t zapdesk .
#   docker run -p 8080:8080 -v zapdesk-data:/data zapdesk                  # everything, embedded PGlite
#   docker run ... -e ZAPDESK_ROLE=worker -e DATABASE_URL=... -e REDIS_URL=... zapdesk
#   docker run --rm ... zapdesk users list                                  # the operator CLI
#
# See README "Run in production" and docker-compose.yml.

FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY . .
RUN bash scripts/build-image.sh /app

FROM oven/bun:1.4.5 AS runtime
# MIMALLOC_PURGE_DELAY: see README, "Configuration" (Bun's allocator returns freed pages to the system
# after 1 s instead of 100 ms: under load it stops giving back and faulting in the same pages).
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080 \
    MIMALLOC_PURGE_DELAY=1000
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# The image's files belong to root and are read-only to the server; it writes only to DATA_DIR
# (the embedded database, media, the inbound spool, generated secrets).
RUN mkdir -p /data && chown bun:bun /data
USER bun
VOLUME ["/data"]
EXPOSE 8080
# bun is in the image (no curl): the probe the orchestrator also uses for liveness.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the graceful stop (README "Run in production"); it takes at most SHUTDOWN_TIMEOUT_MS.
STOPSIGNAL SIGTERM
ENTRYPOINT ["bun", "cli/index.ts"]
CMD ["serve"]
