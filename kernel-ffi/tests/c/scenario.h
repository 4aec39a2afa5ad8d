/* The reference scenario of docs/firmware.md in C, over include/qosgate.h. The platform (the
 * host's main in host.c, the Cortex-M start-up in firmware/c/) provides qg_test_say and calls
 * qg_test_scenario. */
#ifndef QG_TEST_SCENARIO_H
#define QG_TEST_SCENARIO_H

/* Prints one line (`line` holds no newline). */
void qg_test_say(const char *line);

/* Runs every step; returns the number of failed checks and writes the passed ones to *passed. */
int qg_test_scenario(int *passed);

#endif
