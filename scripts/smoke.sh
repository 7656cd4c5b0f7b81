#!/usr/bin/env bash
# Starts the product on its embedded defaults in a fresh data directory, signs in as the seeded
# super user over REST and stops it. Fails if any step does.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
log="$data/server.log"
# Its own process group, so that stopping it stops the server under npm too.
DATA_DIR="$data" PORT=$port ADMIN_PASSWORD='Smoke-Test-1' setsid npm start >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$port/api/version" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || { cat "$log"; echo "smoke: the server exited"; exit 1; }
  sleep 0.5
done
curl -fs "http://127.0.0.1:$port/api/version"; echo
token=$(curl -fs -X POST "http://127.0.0.1:$port/api/auth/login" -H 'content-type: application/json' \
  -d '{"email":"admin@zapdesk.local","password":"Smoke-Test-1"}' | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { cat "$log"; echo "smoke: the super user could not sign in"; exit 1; }
curl -fs "http://127.0.0.1:$port/api/auth/me" -H "authorization: Bearer $token" >/dev/null
curl -fs "http://127.0.0.1:$port/swagger/json" | grep -q '"/api/auth/login"'
curl -fs "http://127.0.0.1:$port/login" | grep -q '<div id="root">' || { echo "smoke: /login is not served"; exit 1; }
demo_password=$(sed -n 's/.*admin@demo.zapdesk.local  password: \(.*\)$/\1/p' "$log")
[ -n "$demo_password" ] || { cat "$log"; echo "smoke: no demo company was seeded"; exit 1; }
demo_token=$(curl -fs -X POST "http://127.0.0.1:$port/api/auth/login" -H 'content-type: application/json' \
  -d "{\"email\":\"admin@demo.zapdesk.local\",\"password\":\"$demo_password\"}" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
# The demo's simulated WhatsApp comes up by itself; then a customer can write in.
for _ in $(seq 1 40); do
  curl -fs "http://127.0.0.1:$port/api/whatsapp" -H "authorization: Bearer $demo_token" | grep -q '"status":"CONNECTED"' && break
  sleep 0.5
done
whatsapp_id=$(curl -fs "http://127.0.0.1:$port/api/whatsapp" -H "authorization: Bearer $demo_token" | sed -n 's/^\[{"id":\([0-9]*\).*"status":"CONNECTED".*/\1/p')
[ -n "$whatsapp_id" ] || { cat "$log"; echo "smoke: the demo connection did not connect"; exit 1; }
curl -fs -X POST "http://127.0.0.1:$port/api/simulator/$whatsapp_id/inbound" -H "authorization: Bearer $demo_token" \
  -H 'content-type: application/json' -d '{"from":"5511987654321","name":"Smoke","body":"hello"}' >/dev/null
echo "smoke: ok"
