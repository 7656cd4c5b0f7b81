#!/usr/bin/env bash
# CI's test of the container image's recipe, where no container daemon runs: scripts/build-image.sh in
# a clean copy of HEAD (what `docker build` gets, minus .dockerignore), then the built output is
# started as the image starts it (its ENTRYPOINT and CMD, a fresh DATA_DIR), /health/live and a page
# are fetched, and a SIGTERM must stop it with exit code 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Bun comes with the checkout's dependencies (the image has it on its PATH): CI has no global bun.
export PATH="$root/node_modules/.bin:$PATH"
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)

mkdir -p "$work/src"
git -C "$root" archive HEAD | tar -x -C "$work/src"
# Dependencies: the checkout's, installed by CI already (the image installs its own from the lockfile).
BUILD_IMAGE_NODE_MODULES="$root/node_modules" bash "$work/src/scripts/build-image.sh" "$work/app"
[ -f "$work/app/dist/web/manifest.json" ] || { echo "check-image-build: no web build in the output"; exit 1; }
if find "$work/app/src" -name '*.test.ts' | grep -q .; then echo "check-image-build: test files in the output"; exit 1; fi

built_at=$(stat -c %Y "$work/app/dist/web/manifest.json")

# As the Dockerfile runs it: ENTRYPOINT ["bun", "cli/index.ts"], CMD ["serve"], from its directory.
port=$((20000 + RANDOM % 20000))
log="$work/server.log"
(cd "$work/app" && exec env -u DATABASE_URL -u REDIS_URL NODE_ENV=production DATA_DIR="$work/data" PORT=$port HOST=127.0.0.1 SHUTDOWN_TIMEOUT_MS=8000 bun cli/index.ts serve) >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$port/health/live" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "check-image-build: the built server exited"; exit 1; }
  sleep 0.5
done
curl -fs "http://127.0.0.1:$port/health/live" | grep -q '"ok"' || { cat "$log"; echo "check-image-build: /health/live did not answer"; exit 1; }
curl -fs "http://127.0.0.1:$port/login" | grep -q '<div id="root">' || { cat "$log"; echo "check-image-build: /login is not served"; exit 1; }
# The baked build was served as is: the server did not build the web app again.
[ "$(stat -c %Y "$work/app/dist/web/manifest.json")" = "$built_at" ] || { cat "$log"; echo "check-image-build: the server rebuilt the web app (its build did not match its sources)"; exit 1; }
kill -TERM "$pid"
code=0
wait "$pid" || code=$?
pid=
[ "$code" = 0 ] || { cat "$log"; echo "check-image-build: SIGTERM ended the server with code $code, not 0"; exit 1; }
echo "check-image-build: ok in $(($(date +%s) - started)) s"
