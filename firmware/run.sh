#!/usr/bin/env bash
# Cargo's runner for the firmware (see .cargo/config.toml): runs the ELF "$1" on QEMU's
# LM3S6965 board (Cortex-M3) with semihosting, decodes the defmt output with defmt-print, and
# exits with QEMU's status: 0 only if the firmware exited through semihosting with success.
# `-icount shift=0` makes the virtual clock count instructions (see src/count.rs); the timeout
# stops a firmware that hangs.
set -euo pipefail
elf="$1"
timeout 120 qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic \
    -semihosting-config enable=on,target=native -icount shift=0 -kernel "$elf" \
    | defmt-print -e "$elf"
