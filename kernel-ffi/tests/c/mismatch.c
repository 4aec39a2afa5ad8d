/* A caller compiled against the other capacity preset than its library's: qg_abi_matches() must
 * be false. CI (step 6d) builds it twice on the host, with the header's small preset
 * (-DQG_CAPACITY_SMALL) against the reference library and with the reference preset against the
 * small library; it exits 0 only when the mismatch is detected. */
#include <stdio.h>

#include "qosgate.h"

#if defined(QG_CAPACITY_SMALL)
#define PRESET "small"
#else
#define PRESET "reference"
#endif

int main(void) {
    const int matches = qg_abi_matches();
    printf("header preset %s: sizeof(qg_scheduler) %zu, the library's %zu; qg_abi_matches() %s\n", PRESET,
           sizeof(qg_scheduler), qg_sizeof(QG_OBJECT_SCHEDULER), matches ? "true: NOT DETECTED" : "false: detected");
    return matches ? 1 : 0;
}
