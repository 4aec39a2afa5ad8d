#!/usr/bin/env bash
# The C images of docs/firmware.md, built with gcc-arm-none-eabi against the thumb staticlib of
# qosgate-ffi. Run from anywhere:
#   firmware/c/build.sh test [PRESET]  the C test program (kernel-ffi/tests/c/scenario.c) on a
#                                  Cortex-M3 under QEMU, the library at the release profile's
#                                  opt-level (3) with the capacity preset PRESET (`reference`, the
#                                  default, or `small`); exits 0 only if every check passed and
#                                  the library's stack frames pass the guards below
#   firmware/c/build.sh footprint  for each capacity preset, on thumbv7em at opt-level "s": the
#                                  flash and RAM of one image per use of the API (the scheduler,
#                                  the bucket, dispatch, backfilling, the slot table, all of them)
#                                  above an image that uses none, the storage sizes, and the
#                                  whole API's split by crate; fails if an image holds any panic
#                                  path or a stack frame the guards refuse
# The stack guards apply to the library's functions in both images (the two profiles it ships
# in): no frame above $max_frame bytes, no qg_*_init frame of $max_init_frame bytes or more.
# Cargo's target directory is $CARGO_TARGET_DIR if set, else the repository's target/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
out="$target_dir/firmware-c"
mkdir -p "$out"
cflags=(-std=c99 -Wall -Wextra -Werror -Os -ffreestanding -ffunction-sections -fdata-sections
    -I"$root/include" -I"$root/kernel-ffi/tests/c")
# The largest stack frame a function of the library may have (bytes): see the footprint step.
max_frame=8192
# The largest frame a `qg_*_init` may have: each builds its object in place (docs/firmware.md).
max_init_frame=1024
ldflags=(-nostdlib -nostartfiles -Wl,--gc-sections -Wl,-z,noexecstack -T "$root/firmware/c/lm3s6965.ld")

# The capacity preset $1 (kernel-ffi/src/config.rs): sets `features`, the cargo features of the
# library, and `define`, the C macros that select the same preset in the header.
preset() {
    case "$1" in
    reference) features=(); define=() ;;
    small) features=(--features small); define=(-DQG_CAPACITY_SMALL) ;;
    *) echo "unknown capacity preset '$1' (reference or small)" >&2; return 2 ;;
    esac
}

# Stack: each library function's frame in the image $1, from the `sub sp` of its prologue, to
# $1.frames (largest first; the C program's own functions are left out); fails if a frame
# exceeds $max_frame bytes or a qg_*_init frame reaches $max_init_frame. Initialising an object
# writes it in place (docs/firmware.md, "Stack"): an init frame the size of an object means a
# copy through a temporary came back.
check_frames() {
    local image="$1"
    arm-none-eabi-objdump -d -C "$image" | awk '
        /^[0-9a-f]+ <.*>:$/ { if (fn != "" && fr > 0) print fr, fn; fn = substr($0, index($0, "<"))
                               fr = 0; n = 0; next }
        { n++ }
        n <= 8 && /sub(w|\.w)?[ \t]+sp, (sp, )?#/ { match($0, /#[0-9]+/); fr += substr($0, RSTART + 1, RLENGTH - 1) }
        END { if (fr > 0) print fr, fn }' | awk '$2 ~ /^<(qg_|.*::)/' | sort -rn > "$image.frames"
    echo "--- the library's largest stack frames in $(basename "$image") (bytes; none may exceed $max_frame)"
    head -5 "$image.frames"
    if awk -v max="$max_frame" '$1 > max { bad = 1 } END { exit !bad }' "$image.frames"; then
        echo "a stack frame exceeds $max_frame bytes" >&2
        return 1
    fi
    if awk -v max="$max_init_frame" '$2 ~ /^<qg_.*_init>:$/ && $1 >= max { bad = 1 }
            END { exit !bad }' "$image.frames"; then
        echo "a qg_*_init frame reaches $max_init_frame bytes: an object is copied, not built in place" >&2
        return 1
    fi
}

case "${1:-}" in
test)
    preset "${2:-reference}"
    (cd "$root" && cargo build -q -p qosgate-ffi --release --target thumbv7m-none-eabi "${features[@]}")
    lib="$target_dir/thumbv7m-none-eabi/release/libqosgate_ffi.a"
    image="$out/scenario-m3-${2:-reference}.elf"
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb "${cflags[@]}" "${define[@]}" "${ldflags[@]}" \
        "$root/firmware/c/startup.c" "$root/kernel-ffi/tests/c/scenario.c" "$lib" -lgcc -o "$image"
    arm-none-eabi-size "$image"
    check_frames "$image"
    timeout 120 qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic \
        -semihosting-config enable=on,target=native -kernel "$image"
    ;;
footprint)
    target=thumbv7em-none-eabihf
    m4=(-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
    uses=(scheduler bucket dispatch backfill slots status)
    # The size of section $2 of image $1 (0 if it has none).
    section() { arm-none-eabi-size -A "$1" | awk -v s="$2" '$1 == s { n = $2 } END { print n + 0 }'; }
    table="$out/footprint.txt"
    : >"$table"
    for p in reference small; do
        preset "$p"
        (cd "$root" && CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=true \
            CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 cargo build -q -p qosgate-ffi --release \
            --target "$target" --target-dir "$target_dir/footprint" "${features[@]}")
        lib="$out/libqosgate_ffi-$p.a"
        cp "$target_dir/footprint/$target/release/libqosgate_ffi.a" "$lib"
        # One image per use, one with every use (`all`), and the baseline (no QG_USE_*).
        all=()
        for use in "${uses[@]}"; do all+=("-DQG_USE_${use^^}"); done
        for use in baseline "${uses[@]}" all; do
            case $use in
            baseline) use_defines=() ;;
            all) use_defines=("${all[@]}") ;;
            *) use_defines=("-DQG_USE_${use^^}") ;;
            esac
            arm-none-eabi-gcc "${m4[@]}" "${cflags[@]}" "${define[@]}" "${use_defines[@]}" \
                "${ldflags[@]}" "$root/firmware/c/startup.c" "$root/firmware/c/footprint.c" "$lib" \
                -lgcc -o "$out/footprint-$p-$use.elf"
        done
        base="$out/footprint-$p-baseline.elf"
        for use in "${uses[@]}" all; do
            image="$out/footprint-$p-$use.elf"
            text=$(( $(section "$image" .text) - $(section "$base" .text) ))
            rodata=$(( $(section "$image" .rodata) + $(section "$image" .ARM.exidx) \
                - $(section "$base" .rodata) - $(section "$base" .ARM.exidx) ))
            data=$(( $(section "$image" .data) - $(section "$base" .data) ))
            bss=$(( $(section "$image" .bss) - $(section "$base" .bss) ))
            printf '%-10s %-10s %8d %8d %8d %8d %8d\n' "$p" "$use" "$text" "$rodata" \
                "$((text + rodata))" "$data" "$bss" >>"$table"
        done
    done
    echo "--- footprint per use: $target, opt-level s, LTO, --gc-sections; bytes above the baseline"
    echo "    image (flash = .text + .rodata with .ARM.exidx; .data is the probe's table of"
    echo "    references, 4 B each; .bss is the use's object storage)"
    printf '%-10s %-10s %8s %8s %8s %8s %8s\n' preset use .text .rodata flash .data .bss
    cat "$table"
    echo "--- capacities and storage sizes on 32-bit targets (the header's; qg_sizeof() answers the same)"
    for p in reference small; do
        preset "$p"
        macros=$(echo '#include "qosgate.h"' |
            arm-none-eabi-gcc "${m4[@]}" -I"$root/include" "${define[@]}" -E -dM -x c -)
        printf '%-10s' "$p"
        for m in MAX_USERS MAX_QUEUE MAX_CPUS MAX_CLUSTERS MAX_REQUEST_TYPES SLOT_BREAKPOINTS \
            BACKFILL_JOBS SCHEDULER_SIZE BUCKET_SIZE BILLIARD_SIZE RTDP_SIZE SLOT_TABLE_SIZE \
            BACKFILL_SIZE; do
            printf ' %s=%s' "${m,,}" "$(awk -v m="QG_$m" '$2 == m { print $3 }' <<<"$macros")"
        done
        echo
    done
    for p in reference small; do
        image="$out/footprint-$p-all.elf"
        echo "--- $p: the whole API's code and read-only data by origin (bytes, from the symbol table)"
        arm-none-eabi-nm -S -C -t d --size-sort "$image" | awk '
            NF >= 4 && $3 ~ /^[TtRr]$/ {
                size = $2 + 0; name = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", name)
                if (name ~ /qosgate_kernel::/) k = "kernel (qosgate_kernel, not inlined)"
                else if (name ~ /^qg_|qosgate_ffi::/) k = "C API (qg_*, with the kernel code inlined into them)"
                else if (name ~ /libm::|__aeabi_d|__(add|sub|mul|div)df3|__.*df|float/) k = "double-precision soft float (libm, compiler_builtins)"
                else if (name ~ /^(qg_reset|qg_test|qosgate_panic|vectors|fault|semihost|decimal|finish|api)$/) next
                else k = "other (core, compiler_builtins)"
                total[k] += size
            }
            END { for (k in total) printf "%8d  %s\n", total[k], k }' | sort -rn
        # A panic anywhere in the code the API reaches would link core's panic functions (every
        # bounds check, unwrap, division by zero and overflow check calls into core::panicking).
        echo "--- $p: panic paths in the library (none allowed)"
        if arm-none-eabi-nm -C "$image" | grep -E 'core::panicking|rust_begin_unwind'; then
            echo "the library links a panic path: some kernel or API code can panic" >&2
            exit 1
        fi
        echo none
        check_frames "$image"
    done
    ;;
*)
    echo "usage: $0 test [reference|small] | footprint" >&2
    exit 2
    ;;
esac
