#!/usr/bin/env bash
# `npm run readme:walk`: the README's ```sh blocks, pasted in order into one
# bash, twice in a row against one fresh data directory, as a newcomer would.
# Fails when a command fails, or when an answer is not 2xx and the README does
# not show that status and error message (a `# → 400 {"error":"…"` comment).
#
# The only rewrites: the two well-known ports become free ones, so that the
# walk never meets another service on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
README=$PWD/README.md

work=$(mktemp -d)
export DATA_DIR=$work/data
pids_file=$work/pids
violations=$work/violations
: >"$violations"

free_port() { node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
PB_PORT=$(free_port)
FAKE_PORT=$(free_port)

# The ```sh blocks, in order (```console blocks are shown, not walked).
awk '/^```sh$/{on=1; next} /^```$/{on=0} on' "$README" |
  sed -e "s/127\.0\.0\.1:3000/127.0.0.1:$PB_PORT/g" -e "s/127\.0\.0\.1:4010/127.0.0.1:$FAKE_PORT/g" \
    -e "s| npm start >pageblocks.log 2>&1 &\$| PORT=$PB_PORT npm start >'$work/pageblocks.log' 2>\&1 \& echo \$! >>'$pids_file'|" \
    -e "s| npm run fake-provider >fake-cms.log 2>&1 &\$| PORT=$FAKE_PORT npm run fake-provider >'$work/fake-cms.log' 2>\&1 \& echo \$! >>'$pids_file'|" \
    >"$work/walk.sh"
grep -q "PORT=$PB_PORT npm start" "$work/walk.sh" || { echo "readme-walk: no 'npm start >pageblocks.log 2>&1 &' line in the README" >&2; exit 1; }
grep -q "PORT=$FAKE_PORT npm run fake-provider" "$work/walk.sh" || { echo "readme-walk: no 'npm run fake-provider >fake-cms.log 2>&1 &' line in the README" >&2; exit 1; }

# curl as the README calls it, checked: a non-2xx answer must be one the README
# shows. `curl -f` and `curl -o` (the waits for readiness) handle their own answers.
cat >"$work/prelude.sh" <<PRELUDE
set -euo pipefail
curl() {
  case " \$* " in *" -sf "*|*" -f "*|*" -o "*) command curl "\$@"; return \$?;; esac
  local body status rc=0
  body=\$(mktemp)
  status=\$(command curl "\$@" -o "\$body" -w '%{http_code}') || rc=\$?
  cat "\$body"
  if [ "\$rc" -ne 0 ]; then rm -f "\$body"; return "\$rc"; fi
  if [ "\$status" -lt 200 ] || [ "\$status" -ge 300 ]; then
    node '$PWD/scripts/readme-walk-check.mjs' '$README' "\$status" "\$body" "\$*" >>'$violations' || true
  fi
  rm -f "\$body"
}
PRELUDE

stop_background() {
  if [ -f "$pids_file" ]; then
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$pids_file"
    while read -r pid; do
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done <"$pids_file"
    rm -f "$pids_file"
  fi
}
trap 'stop_background; rm -rf "$work"' EXIT

for pass in 1 2; do
  echo "== README walk, pass $pass (service on port $PB_PORT, data in $DATA_DIR)"
  if ! timeout 600 bash -c "source '$work/prelude.sh'; source '$work/walk.sh'" >"$work/out-$pass.txt" 2>&1; then
    cat "$work/out-$pass.txt"
    # The background processes' own logs, as the README sends them to files.
    for log in pageblocks fake-cms; do
      [ -s "$work/$log.log" ] && { echo "== $log.log (last 40 lines)"; tail -n 40 "$work/$log.log"; }
    done
    echo "readme-walk: pass $pass failed" >&2
    exit 1
  fi
  stop_background
  # Stopping what the README started stops all of it: nothing answers on either port any more.
  for port in $PB_PORT $FAKE_PORT; do
    if command curl -s -o /dev/null "http://127.0.0.1:$port/"; then
      echo "readme-walk: something still answers on port $port after its background process was stopped" >&2
      exit 1
    fi
  done
  if [ -s "$violations" ]; then
    cat "$work/out-$pass.txt"
    cat "$violations" >&2
    echo "readme-walk: pass $pass got answers the README does not show" >&2
    exit 1
  fi
  echo "pass $pass: $(grep -c '' "$work/walk.sh") lines ran, every answer as the README shows"
done
echo "1 passed, 0 failed"
