/* The C test program on the host: the scenario against the host staticlib. */
#include <stdio.h>

#include "scenario.h"

void qg_test_say(const char *line) { printf("%s\n", line); }

int main(void) {
    int passed;
    int failed = qg_test_scenario(&passed);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
