# The opening of the fixture generators (tests/data/circom/make.sh,
# tests/data/zkey/make.sh); sourced, not run, as
#   . "$(dirname "$0")/../npm_fixture.sh"
# It sets here (the generator's folder, made the current one), bin (the
# repository's node_modules/.bin: the pinned circom2 and snarkjs of
# package.json, after `npm ci` at the repository root) and tmp (a scratch
# folder, removed on exit).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../../../node_modules/.bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
