#!/usr/bin/env bash
# The Filecoin commands of cuzk as an operator runs them, run by ctest
# as fc_cli:
#   1. seal a 2KiB CC sector: comm_d is the empty 2KiB sector's, and comm_d
#      and comm_r are the library's for the same ids (test_fc_sector
#      --write-seal); porep c1-verify accepts the C1, also with the ids;
#   2. one changed value of the C1 (a column row, through python's json):
#      porep c1-verify says invalid (exit 1); a truncated C1: exit 2;
#   3. porep verify with the stand-in circuit's key and proof: valid (exit 0);
#      a changed sector id, seed, --porep-id or --api-version: invalid
#      (exit 1); bad hex, an unknown flag, a missing flag, a wrong proof
#      length, a sector size the registered proof does not have: exit 2;
#   4. c1-synth 2KiB and 32GiB C1s that porep c1-verify accepts; c1-synth of an NI
#      registered proof, or seal of a 32GiB sector: exit 2 with the reason;
#      seal --data of a file larger than the sector: exit 2; raw data and
#      the same data Fr32-padded (an unsealed sector file) seal alike;
#   5. snap encode and snap verify (SnapDeals, vanilla proofs);
#   6. params in two steps (--pce-only, --reuse-pce) write the one step's bytes.
#
#   tests/oracle/run_fc_cli.sh PATH/TO/cuzk PATH/TO/test_fc_sector
set -euo pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: $0 PATH/TO/cuzk PATH/TO/test_fc_sector" >&2
    exit 2
fi
cuzk=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

# shellcheck source=tests/oracle/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

"$2" --write-seal "$work"
# shellcheck disable=SC1091
. "$work/args"
ids=(--prover-id "$PROVER" --sector-id "$SECTOR" --ticket "$TICKET" --seed "$SEED")

# 1. seal
expect 0 "porep seal 2KiB" "$cuzk" porep seal --sector-size 2KiB "${ids[@]}" --out "$work/c1.json"
said "comm_d fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"
said "comm_d $COMM_D"
said "comm_r $COMM_R"
expect 0 "porep c1-verify" "$cuzk" porep c1-verify --c1 "$work/c1.json"
said "^valid$"
expect 0 "porep c1-verify with the ids" "$cuzk" porep c1-verify --c1 "$work/c1.json" \
    --prover-id "$PROVER" --sector-id "$SECTOR"
expect 1 "porep c1-verify with another sector id" "$cuzk" porep c1-verify --c1 "$work/c1.json" \
    --prover-id "$PROVER" --sector-id 8
said "^invalid$"
said "replica_id" err

# 2. a changed C1
python3 - "$work/c1.json" "$work/bad.json" <<'EOF'
import json, sys
c1 = json.load(open(sys.argv[1]))
col = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]["replica_column_proofs"]["drg_parents"][2]
col["column"]["rows"][1][0] ^= 1
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
EOF
expect 1 "porep c1-verify of a changed row" "$cuzk" porep c1-verify --c1 "$work/bad.json"
said "partition 0, challenge 1" err
said "drg_parents\[2\]" err
head -c 5000 "$work/c1.json" >"$work/short.json"
expect 2 "porep c1-verify of a truncated C1" "$cuzk" porep c1-verify --c1 "$work/short.json"
said "vanilla_proofs" err

# 3. porep verify
vs=("$cuzk" porep verify --sector-size 2KiB --vk "$work/vk" --proof "$work/proof"
    --comm-r "$COMM_R" --comm-d "$COMM_D")
expect 0 "porep verify" "${vs[@]}" "${ids[@]}"
said "^valid$"
expect 0 "porep verify, registered proof named" "${vs[@]}" "${ids[@]}" \
    --registered-proof StackedDrg2KiBV1_1
expect 1 "porep verify, another sector id" "${vs[@]}" --prover-id "$PROVER" --sector-id 8 \
    --ticket "$TICKET" --seed "$SEED"
said "^invalid$"
expect 1 "porep verify, another seed" "${vs[@]}" --prover-id "$PROVER" --sector-id "$SECTOR" \
    --ticket "$TICKET" --seed "$TICKET"
expect 1 "porep verify, porep_id 0" "${vs[@]}" "${ids[@]}" --porep-id "$(printf '%064d' 0)"
expect 1 "porep verify, API 1.0 rules" "${vs[@]}" "${ids[@]}" --api-version 1.0
expect 2 "porep verify, API 2.0" "${vs[@]}" "${ids[@]}" --api-version 2.0
said "api-version" err
expect 2 "porep verify, bad hex" "${vs[@]}" --prover-id "${PROVER/e8/zz}" --sector-id 7 \
    --ticket "$TICKET" --seed "$SEED"
said "not a hex digit" err
expect 2 "porep verify, short hex" "${vs[@]}" "${ids[@]}" --comm-r abcd
expect 2 "porep verify, unknown flag" "${vs[@]}" "${ids[@]}" --frobnicate 1
expect 2 "porep verify, no --vk" "$cuzk" porep verify --sector-size 2KiB --proof "$work/proof" \
    --comm-r "$COMM_R" --comm-d "$COMM_D" "${ids[@]}"
said "\-\-vk is required" err
head -c 191 "$work/proof" >"$work/proof191"
expect 2 "porep verify, 191 proof bytes" "$cuzk" porep verify --sector-size 2KiB --vk "$work/vk" \
    --proof "$work/proof191" --comm-r "$COMM_R" --comm-d "$COMM_D" "${ids[@]}"
said "191 proof bytes" err
expect 2 "porep verify, 32GiB with a 2KiB proof" "${vs[@]}" "${ids[@]}" \
    --registered-proof StackedDrg32GiBV1_1
expect 2 "porep verify, sector size of another proof" "$cuzk" porep verify --sector-size 8MiB \
    --registered-proof StackedDrg2KiBV1_1 --vk "$work/vk" --proof "$work/proof" \
    --comm-r "$COMM_R" --comm-d "$COMM_D" "${ids[@]}"
expect 2 "porep verify, zero comm_d" "${vs[@]/$COMM_D/$(printf '%064d' 0)}" "${ids[@]}"
said "all zero" err

# 4. synthetic C1s and refusals
expect 0 "porep c1-synth 2KiB" "$cuzk" porep c1-synth --sector-size 2KiB --seed 5 --out "$work/s2k.json"
expect 0 "porep c1-verify of it" "$cuzk" porep c1-verify --c1 "$work/s2k.json"
expect 0 "porep c1-synth 32GiB" "$cuzk" porep c1-synth --sector-size 32GiB --seed 5 --out "$work/s32g.json"
expect 0 "porep c1-verify of it" "$cuzk" porep c1-verify --c1 "$work/s32g.json"
expect 2 "porep c1-synth of an NI proof" "$cuzk" porep c1-synth \
    --registered-proof StackedDrg32GiBV1_2_Feat_NonInteractivePoRep --out "$work/x.json"
said "interactive" err
expect 2 "porep seal 32GiB" "$cuzk" porep seal --sector-size 32GiB "${ids[@]}" --out "$work/x.json"
said "2-layer" err
head -c 2033 /dev/zero >"$work/big"
expect 2 "porep seal --data larger than 2KiB's 2032 raw bytes" "$cuzk" porep seal --sector-size 2KiB \
    --data "$work/big" "${ids[@]}" --out "$work/x.json"
said "2032 raw bytes" err
# raw data and the same data padded (an unsealed sector file) seal alike
head -c 2032 /dev/urandom >"$work/raw"
python3 - "$work/raw" "$work/unsealed" <<'EOF'
import sys
raw = int.from_bytes(open(sys.argv[1], "rb").read(), "little")
out = 0
for u in range(2032 * 8 // 254):  # 254 data bits, then 2 zero bits
    out |= ((raw >> (254 * u)) & ((1 << 254) - 1)) << (256 * u)
open(sys.argv[2], "wb").write(out.to_bytes(2048, "little"))
EOF
expect 0 "porep seal --data raw" "$cuzk" porep seal --sector-size 2KiB --data "$work/raw" "${ids[@]}" \
    --out "$work/r.json"
grep comm_ "$work/out" >"$work/raw.comm"
expect 0 "porep seal --data unsealed" "$cuzk" porep seal --sector-size 2KiB --data "$work/unsealed" \
    "${ids[@]}" --out "$work/u.json"
if ! grep comm_ "$work/out" | cmp -s - "$work/raw.comm" || ! cmp -s "$work/r.json" "$work/u.json"; then
    echo "FAIL: raw and padded data sealed differently" >&2
    fails=$((fails + 1))
fi
printf '\xff' | dd of="$work/unsealed" bs=1 seek=63 conv=notrunc status=none
expect 2 "porep seal --data of a sector file with a padding bit set" "$cuzk" porep seal \
    --sector-size 2KiB --data "$work/unsealed" "${ids[@]}" --out "$work/x.json"
said "not Fr32" err
expect 2 "porep seal --sector-size 3KiB" "$cuzk" porep seal --sector-size 3KiB "${ids[@]}" --out "$work/x.json"

# 5. SnapDeals: snap encode a 2KiB sector (seal + update), snap verify
#    the vanilla proof it wrote: valid; with comm_r_new for comm_r_old, or
#    a flipped byte of the proof: invalid (exit 1) with the reason; a
#    truncated proof, h not allowed, a size without an update proof: exit 1
#    or 2 with the reason
expect 0 "snap encode 2KiB" "$cuzk" snap encode --sector-size 2KiB --sector-id 5 \
    --new-data-seed 3 --out "$work/snap"
said "^comm_r_new "
upd() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" \
    "$work/snap/update.json" "$1"; }
ro=$(upd comm_r_old) dn=$(upd comm_d_new) rn=$(upd comm_r_new)
expect 0 "snap verify" "$cuzk" snap verify --sector-size 2KiB --comm-r-old "$ro" \
    --comm-d-new "$dn" --comm-r-new "$rn" "$work/snap/vanilla-0.bin"
said "^valid$"
expect 1 "snap verify with comm_r_new as comm_r_old" "$cuzk" snap verify \
    --sector-size 2KiB --comm-r-old "$rn" --comm-d-new "$dn" --comm-r-new "$rn" \
    "$work/snap/vanilla-0.bin"
said "comm_r_old"
cp "$work/snap/vanilla-0.bin" "$work/snap/bad.bin"
printf '\x01' | dd of="$work/snap/bad.bin" bs=1 seek=5000 conv=notrunc status=none
expect 1 "snap verify of a changed proof" "$cuzk" snap verify --sector-size 2KiB \
    --comm-r-old "$ro" --comm-d-new "$dn" --comm-r-new "$rn" "$work/snap/bad.bin"
said "^invalid: partition 0"
head -c 1000 "$work/snap/vanilla-0.bin" >"$work/snap/short.bin"
expect 1 "snap verify of a truncated proof" "$cuzk" snap verify --sector-size 2KiB \
    --comm-r-old "$ro" --comm-d-new "$dn" --comm-r-new "$rn" "$work/snap/short.bin"
said "short"
expect 2 "snap verify --h 5 at 2KiB" "$cuzk" snap verify --sector-size 2KiB --h 5 \
    --comm-r-old "$ro" --comm-d-new "$dn" --comm-r-new "$rn" "$work/snap/vanilla-0.bin"
said "allows h" err
expect 2 "snap encode of a 32GiB sector" "$cuzk" snap encode --sector-size 32GiB \
    --out "$work/x"
said "2KiB, 8MiB and 512MiB" err

# 6. params in two steps (--pce-only, then --reuse-pce): the same bytes as
#    in one; --reuse-pce without a .pce, or with --pce-only: exit 2
win=(params --circuit winning --sector-size 2KiB)
expect 0 "params winning 2KiB" "$cuzk" "${win[@]}" --out "$work/p1"
expect 0 "params winning 2KiB --pce-only" "$cuzk" "${win[@]}" --out "$work/p2" --pce-only
expect 0 "params winning 2KiB --reuse-pce" "$cuzk" "${win[@]}" --out "$work/p2" --reuse-pce
said "pce loaded"
for ext in pce params vk; do
    if ! cmp -s "$work"/p1/*."$ext" "$work"/p2/*."$ext"; then
        echo "FAIL: params in two steps: the .$ext differs from the one-step run's" >&2
        fails=$((fails + 1))
    fi
done
expect 2 "params --reuse-pce without a .pce" "$cuzk" "${win[@]}" --out "$work/p3" --reuse-pce
said "make it with --pce-only" err
expect 2 "params --reuse-pce --pce-only" "$cuzk" "${win[@]}" --out "$work/p2" --reuse-pce \
    --pce-only
said "one or the other" err

if [ $fails -ne 0 ]; then
    echo "run_fc_cli: $fails failed" >&2
    exit 1
fi
echo "run_fc_cli: all passed"
