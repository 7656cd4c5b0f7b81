#!/usr/bin/env bash
# The container image's build steps (the Dockerfile runs this; CI runs it too, in a clean copy of the
# checkout, then starts the result: scripts/check-image-build.sh). Builds into OUT (default
# build/image) what the image runs: the server's sources, the web build, the production dependencies.
#
#   scripts/build-image.sh [OUT]
#
# BUILD_IMAGE_NODE_MODULES=<dir>: use that node_modules instead of installing (CI, where the checkout's
# dependencies are installed already and the registry is not asked twice). Without it, dependencies
# are installed with bun from the lockfile: all of them for the web build (Babel and the Lingui macro
# are dev dependencies), then only the production ones into OUT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/image}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"

step() { printf '== build-image (%3d s): %s\n' "$SECONDS" "$*"; }

step "dependencies"
if [ -n "${BUILD_IMAGE_NODE_MODULES:-}" ]; then
  [ -e node_modules ] || ln -s "$BUILD_IMAGE_NODE_MODULES" node_modules
else
  # --no-save: the versions come from package-lock.json (bun migrates it) and nothing is rewritten.
  bun install --no-save
fi

step "web build (dist/web)"
bun web/build.ts

step "assemble $out"
# What the server, the CLI and the migrations need at run time; tests, benchmarks and docs stay out.
# The web sources ship with their build: the build is served as is while they match it (same Bun,
# same sources: web/build-manifest.ts), and the server imports a few of them (routes, languages).
rm -rf "${out:?}/"{src,cli,db,jobs,web,dist}
for path in package.json package-lock.json tsconfig.json bunfig.toml lingui.config.ts drizzle.config.ts src cli db jobs web dist/web; do
  mkdir -p "$out/$(dirname "$path")"
  cp -R "$path" "$out/$path"
done
# Unit tests live beside the code: not in the image.
find "$out/src" "$out/cli" "$out/db" "$out/jobs" "$out/web" -name '*.test.ts' -o -name '*.test.tsx' | xargs -r rm -f

step "production dependencies"
if [ -n "${BUILD_IMAGE_NODE_MODULES:-}" ]; then
  [ -e "$out/node_modules" ] || ln -s "$BUILD_IMAGE_NODE_MODULES" "$out/node_modules"
else
  (cd "$out" && bun install --production --no-save)
fi

# The build on disk must be the one served: a stale fingerprint would make the server rebuild at start.
bun -e "
  const { readManifest, sourceFingerprint } = await import('$out/web/build-manifest.ts')
  const manifest = readManifest()
  if (!manifest) throw new Error('no dist/web/manifest.json in $out')
  if (manifest.sourceHash !== sourceFingerprint()) throw new Error('the web build in $out does not match its sources: the server would rebuild it at start')
"
step "done: $(du -sh "$out" --exclude=node_modules 2>/dev/null | cut -f1) without node_modules"
