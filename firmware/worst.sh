#!/usr/bin/env bash
# The worst case of every C API call (src/worst.rs) on a Cortex-M3 (thumbv7m-none-eabi) and a
# Cortex-M0 (thumbv6m-none-eabi), both on QEMU's lm3s6965evb (`-cpu cortex-m3` / `cortex-m0`,
# see run.sh), built with the release profile (opt-level "s", LTO). Prints docs/firmware.md's
# table (call, case, instructions on each core, the deeper of the two stacks, the bound) and
# fails if:
#   - either image fails (a case's call returned an unexpected status);
#   - a function that include/qosgate.h declares has no row, or a row no budget;
#   - a row's instructions exceed its call's ceiling in worst-budget.txt.
# `worst.sh --budget` rewrites worst-budget.txt from this run instead of checking it: each
# ceiling the call's costliest row plus 10 % plus 160 instructions (two SysTick ticks, the
# resolution of one measurement), rounded up to a multiple of 10.
#
# Leaves the worst-case images in target/<triple>/release/qosgate-firmware (the next
# `cargo run --release` rebuilds the scenario's) and the logs in target/worst-<triple>.log
# (under $CARGO_TARGET_DIR if set).
set -euo pipefail
cd "$(dirname "$0")"
mode=check
if [[ ${1:-} == --budget ]]; then mode=budget; fi

target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir"
for triple in thumbv7m-none-eabi thumbv6m-none-eabi; do
    cargo build --release --features worst --target "$triple" >&2
    log="$target_dir/worst-$triple.log"
    ./run.sh "$target_dir/$triple/release/qosgate-firmware" >"$log" 2>&1 || {
        cat "$log" >&2
        echo "worst.sh: the $triple image failed" >&2
        exit 1
    }
    grep '^worst|' "$log" >"$log.rows"
done

# One line per row: call|case|m3|m0|stack|bound (the two images print the same rows in order).
rows=$(paste -d '|' "$target_dir/worst-thumbv7m-none-eabi.log.rows" \
    "$target_dir/worst-thumbv6m-none-eabi.log.rows" |
    awk -F '|' '{
        if ($2 != $8 || $3 != $9) { print "rows differ: " $2 " / " $8 > "/dev/stderr"; exit 1 }
        stack = ($5 > $11) ? $5 : $11
        print $2 "|" $3 "|" $4 "|" $10 "|" stack "|" $6
    }')

echo "| call | case | M3 max | M0 max | stack (B) | bound |"
echo "| --- | --- | --- | --- | --- | --- |"
awk -F '|' '
    function commas(n,    s) {
        s = n ""
        while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
        return s
    }
    { printf "| `%s` | %s | %s | %s | %s | %s |\n", $1, $2, commas($3), commas($4), commas($5), $6 }
' <<<"$rows"

missing=$(comm -23 \
    <(grep -E '^[a-z].*[ *]qg_[a-z0-9_]+\(' ../include/qosgate.h | grep -v '^static' |
        grep -oE 'qg_[a-z0-9_]+\(' | tr -d '(' | sort -u) \
    <(cut -d '|' -f 1 <<<"$rows" | sort -u))
if [[ -n $missing ]]; then
    echo "worst.sh: no worst case for: $missing" >&2
    exit 1
fi

if [[ $mode == budget ]]; then
    {
        echo "# Per-call ceilings that CI's firmware/worst.sh holds the worst cases to: call, then the"
        echo "# most instructions one call may take on the Cortex-M3 and on the Cortex-M0 (QEMU -icount)."
        echo "# Written by \`firmware/worst.sh --budget\`: the costliest row of each call plus 10 % plus"
        echo "# 160 instructions (two SysTick ticks, a measurement's resolution), rounded up to 10."
        awk -F '|' '{
            if (!($1 in m3) || $3 > m3[$1]) m3[$1] = $3
            if (!($1 in m0) || $4 > m0[$1]) m0[$1] = $4
            if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
        }
        function ceiling(x) { x = x * 1.1 + 160; return int((x + 9) / 10) * 10 }
        END { for (i = 1; i <= n; i++) print order[i], ceiling(m3[order[i]]), ceiling(m0[order[i]]) }
        ' <<<"$rows"
    } >worst-budget.txt
    echo "worst.sh: wrote worst-budget.txt" >&2
    exit 0
fi

awk -F '|' '
    NR == FNR { if ($0 !~ /^#/ && NF) { split($0, f, " "); m3[f[1]] = f[2]; m0[f[1]] = f[3] } next }
    {
        if (!($1 in m3)) { print "worst.sh: no budget for " $1 > "/dev/stderr"; bad = 1; next }
        if ($3 > m3[$1]) { printf "worst.sh: %s (%s) takes %d instructions on the M3, over its budget of %d\n", $1, $2, $3, m3[$1] > "/dev/stderr"; bad = 1 }
        if ($4 > m0[$1]) { printf "worst.sh: %s (%s) takes %d instructions on the M0, over its budget of %d\n", $1, $2, $4, m0[$1] > "/dev/stderr"; bad = 1 }
    }
    END { exit bad }
' worst-budget.txt - <<<"$rows"
echo "worst.sh: every call within its budget (worst-budget.txt)" >&2
