#!/usr/bin/env bash
# The whole loop in a throwaway repository: init, pin, work, new, resume, done.
# Run it with `npm run demo`; it changes nothing outside a temporary directory.
set -euo pipefail
handoff="node $(cd "$(dirname "$0")/.." && pwd)/bin/handoff.js"
repo=$(mktemp -d "${TMPDIR:-/tmp}/handoff-demo.XXXXXX")
trap 'rm -rf "$repo"' EXIT
cd "$repo"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_EDITOR=:
git init -q -b main
git config user.name "Demo User"
git config user.email demo@example.com
echo "# demo" > README.md && git add . && git commit -qm "initial"

step() { printf '\n$ handoff %s\n' "$*"; eval "$handoff $*"; }
step init
step pin "'Never change the public API of src/billing.ts without asking.'"
git checkout -qb teams
mkdir -p src && echo "export const plans = ['solo'];" > src/billing.ts
git add . && git commit -qm "Add billing plans"
echo "export const teams = [];" > src/teams.ts
step new "'Add team accounts on top of billing'" --no-edit
step list
step resume
step roadmap
printf '\n$ head -n 12 .handoff/ROADMAP.md\n'; head -n 12 .handoff/ROADMAP.md
step done
printf '\nDemo finished: the loop ran end to end in %s (now removed).\n' "$repo"
