/* Bare-metal start-up for the C images on QEMU's lm3s6965evb: the vector table, .data and .bss
 * set-up, semihosting output and exit, and the library's panic hook. The image's
 * qg_test_scenario (the C test program, or the footprint probe) decides the exit status. */
#include <stdint.h>

#include "scenario.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _stack_top;

void qg_reset(void);
static void fault(void);

__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
    &_stack_top, (const void *)qg_reset, (const void *)fault, (const void *)fault,
    (const void *)fault, (const void *)fault, (const void *)fault,
};

/* An Arm semihosting call (BKPT 0xAB on M-profile). */
static int semihost(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };
/* SYS_EXIT reasons: QEMU exits with 0 for ApplicationExit, 1 for any other. */
enum { APPLICATION_EXIT = 0x20026, RUN_TIME_ERROR = 0x20023 };

void qg_test_say(const char *line) {
    semihost(SYS_WRITE0, line);
    semihost(SYS_WRITE0, "\n");
}

static __attribute__((noreturn)) void finish(int ok) {
    semihost(SYS_EXIT, (const void *)(uintptr_t)(ok ? APPLICATION_EXIT : RUN_TIME_ERROR));
    for (;;) {
    }
}

static void fault(void) {
    qg_test_say("fault");
    finish(0);
}

/* The library's panic hook (see include/qosgate.h). */
void qosgate_panic(void) {
    qg_test_say("qosgate panicked");
    finish(0);
}

/* Decimal text of n into buf (at least 11 bytes); returns the start. */
static char *decimal(char *buf, unsigned n) {
    char *p = buf + 10;
    *p = '\0';
    do {
        *--p = (char)('0' + n % 10);
        n /= 10;
    } while (n != 0);
    return p;
}

void qg_reset(void) {
    char a[11], b[11];
    int passed, failed;
    for (uint32_t *s = &_sidata, *d = &_sdata; d < &_edata;) {
        *d++ = *s++;
    }
    for (uint32_t *d = &_sbss; d < &_ebss;) {
        *d++ = 0;
    }
    failed = qg_test_scenario(&passed);
    semihost(SYS_WRITE0, decimal(a, (unsigned)passed));
    semihost(SYS_WRITE0, " passed, ");
    semihost(SYS_WRITE0, decimal(b, (unsigned)failed));
    qg_test_say(" failed");
    finish(failed == 0);
}
