#!/usr/bin/env bash
# The C images of docs/firmware.md, built with gcc-arm-none-eabi against the thumb staticlib of
# qosgate-ffi. Run from anywhere:
#   firmware/c/build.sh test       the C test program (kernel-ffi/tests/c/scenario.c) on a
#                                  Cortex-M3 under QEMU, the library at the release profile's
#                                  opt-level (3); exits 0 only if every check passed and the
#                                  library's stack frames pass the guards below
#   firmware/c/build.sh footprint  the library's flash footprint on thumbv7em at opt-level "s":
#                                  an image referencing every API function minus one referencing
#                                  none, and its split by crate; fails if the image holds any
#                                  panic path or a stack frame the guards refuse
# The stack guards apply to the library's functions in both images (the two profiles it ships
# in): no frame above $max_frame bytes, no qg_*_init frame of $max_init_frame bytes or more.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/target/firmware-c"
mkdir -p "$out"
cflags=(-std=c99 -Wall -Wextra -Werror -Os -ffreestanding -ffunction-sections -fdata-sections
    -I"$root/include" -I"$root/kernel-ffi/tests/c")
# The largest stack frame a function of the library may have (bytes): see the footprint step.
max_frame=8192
# The largest frame a `qg_*_init` may have: each builds its object in place (docs/firmware.md).
max_init_frame=1024
ldflags=(-nostdlib -nostartfiles -Wl,--gc-sections -Wl,-z,noexecstack -T "$root/firmware/c/lm3s6965.ld")

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
    (cd "$root" && cargo build -q -p qosgate-ffi --release --target thumbv7m-none-eabi)
    lib="$root/target/thumbv7m-none-eabi/release/libqosgate_ffi.a"
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb "${cflags[@]}" "${ldflags[@]}" \
        "$root/firmware/c/startup.c" "$root/kernel-ffi/tests/c/scenario.c" "$lib" -lgcc \
        -o "$out/scenario-m3.elf"
    arm-none-eabi-size "$out/scenario-m3.elf"
    check_frames "$out/scenario-m3.elf"
    timeout 120 qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic \
        -semihosting-config enable=on,target=native -kernel "$out/scenario-m3.elf"
    ;;
footprint)
    target=thumbv7em-none-eabihf
    (cd "$root" && CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=true \
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
        cargo build -q -p qosgate-ffi --release --target "$target" --target-dir target/footprint)
    lib="$root/target/footprint/$target/release/libqosgate_ffi.a"
    m4=(-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
    for image in baseline api; do
        define=()
        if [[ $image == baseline ]]; then define=(-DQG_BASELINE); fi
        arm-none-eabi-gcc "${m4[@]}" "${cflags[@]}" "${define[@]}" "${ldflags[@]}" \
            "$root/firmware/c/startup.c" "$root/firmware/c/footprint.c" "$lib" -lgcc \
            -o "$out/footprint-$image.elf"
    done
    echo "--- $target, opt-level s, LTO: image with every qg_* function vs. none"
    section() { arm-none-eabi-size -A "$1" | awk -v s="$2" '$1 == s { print $2 }'; }
    printf '%-10s %10s %10s %10s\n' section baseline api library
    for s in .text .rodata .ARM.exidx .data .bss; do
        b=$(section "$out/footprint-baseline.elf" "$s"); a=$(section "$out/footprint-api.elf" "$s")
        printf '%-10s %10s %10s %10s\n' "$s" "${b:-0}" "${a:-0}" "$(( ${a:-0} - ${b:-0} ))"
    done
    echo "--- the library's code and read-only data by origin (bytes, from the symbol table)"
    arm-none-eabi-nm -S -C -t d --size-sort "$out/footprint-api.elf" | awk '
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
    echo "--- panic paths in the library (none allowed)"
    if arm-none-eabi-nm -C "$out/footprint-api.elf" | grep -E 'core::panicking|rust_begin_unwind'; then
        echo "the library links a panic path: some kernel or API code can panic" >&2
        exit 1
    fi
    echo none
    check_frames "$out/footprint-api.elf"
    ;;
*)
    echo "usage: $0 test|footprint" >&2
    exit 2
    ;;
esac
