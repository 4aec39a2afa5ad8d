#!/usr/bin/env bash
# Cargo's runner for the firmware (see .cargo/config.toml): runs the ELF "$1" on QEMU's
# LM3S6965 board (Cortex-M3) with semihosting, decodes the defmt output with defmt-print, and
# exits with QEMU's status: 0 only if the firmware exited through semihosting with success.
# An image built for thumbv6m-none-eabi runs on QEMU's cortex-m0 CPU on the same board.
# `-icount shift=0` makes the virtual clock count instructions (see src/count.rs); the timeout
# stops a firmware that hangs.
set -euo pipefail
elf="$1"
cpu=cortex-m3
if [[ $elf == *thumbv6m-none-eabi* ]]; then cpu=cortex-m0; fi
timeout 120 qemu-system-arm -cpu "$cpu" -machine lm3s6965evb -nographic \
    -semihosting-config enable=on,target=native -icount shift=0 -kernel "$elf" \
    | defmt-print -e "$elf"
