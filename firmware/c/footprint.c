/* The footprint probe: an image that references every function of the C API (so the linker
 * keeps all of the library an application could use), or, with -DQG_BASELINE, none of them.
 * The difference of the two images' sizes is the library's flash footprint. */
#include <stddef.h>

#include "qosgate.h"
#include "scenario.h"

#ifndef QG_BASELINE
static const void *const volatile api[] = {
    (const void *)qg_scheduler_init,     (const void *)qg_scheduler_register,
    (const void *)qg_scheduler_deregister, (const void *)qg_scheduler_submit_gs,
    (const void *)qg_scheduler_submit_be, (const void *)qg_scheduler_next,
    (const void *)qg_scheduler_complete, (const void *)qg_scheduler_next_finish,
    (const void *)qg_billiard_init,      (const void *)qg_billiard_next,
    (const void *)qg_rtdp_init,          (const void *)qg_rtdp_next,
    (const void *)qg_slots_init,         (const void *)qg_slots_earliest_fit,
    (const void *)qg_slots_reserve,      (const void *)qg_slots_release,
    (const void *)qg_slots_free_at,      (const void *)qg_backfill_init,
    (const void *)qg_backfill_submit,    (const void *)qg_backfill_schedule,
    (const void *)qg_backfill_complete,  (const void *)qg_bucket_init,
    (const void *)qg_bucket_check,       (const void *)qg_bucket_charge,
    (const void *)qg_bucket_feedback,    (const void *)qg_bucket_level,
    (const void *)qg_bucket_withdraw,    (const void *)qg_bucket_submitted,
    (const void *)qg_bucket_outstanding, (const void *)qg_pap_solve,
    (const void *)qg_status_str,         (const void *)qg_abi_version,
    (const void *)qg_sizeof,
};
#endif

int qg_test_scenario(int *passed) {
    *passed = 0;
#ifndef QG_BASELINE
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++) {
        *passed += api[i] != NULL;
    }
#endif
    return 0;
}
