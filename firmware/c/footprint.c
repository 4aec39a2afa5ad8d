/* The footprint probe: an image that references the functions of one use of the C API, and
 * declares the objects that use needs (so the linker keeps exactly what such an application
 * pays for), or, with no QG_USE_* macro, nothing of the library: the baseline. An image's
 * sections minus the baseline's are the use's footprint: .text and .rodata the library's code
 * and constants in flash, .bss the use's object storage in RAM, .data the probe's own table
 * below (4 bytes per function or object it references; the library has no .data of its own).
 *
 * Uses (firmware/c/build.sh footprint defines one or more of them):
 *   QG_USE_SCHEDULER  a GS resource's local scheduler (qg_scheduler_*, one qg_scheduler)
 *   QG_USE_BUCKET     a GS user's leaky bucket (qg_bucket_*, one qg_bucket)
 *   QG_USE_DISPATCH   gateway dispatch: billiard, RTDP and PAP (one qg_billiard, one qg_rtdp)
 *   QG_USE_BACKFILL   a cluster's backfilling (qg_backfill_*, one qg_backfill)
 *   QG_USE_SLOTS      a slot table of leases (qg_slots_*, one qg_slot_table)
 *   QG_USE_STATUS     qg_status_str
 * Every use also references qg_abi_version and qg_sizeof, which the header's qg_abi_matches()
 * calls at start-up. */
#include <stddef.h>

#include "qosgate.h"
#include "scenario.h"

#if defined(QG_USE_SCHEDULER) || defined(QG_USE_BUCKET) || defined(QG_USE_DISPATCH) || \
    defined(QG_USE_BACKFILL) || defined(QG_USE_SLOTS) || defined(QG_USE_STATUS)
#define QG_USE_ANY
#endif

#ifdef QG_USE_SCHEDULER
static qg_scheduler scheduler;
#endif
#ifdef QG_USE_BUCKET
static qg_bucket bucket;
#endif
#ifdef QG_USE_DISPATCH
static qg_billiard billiard;
static qg_rtdp rtdp;
#endif
#ifdef QG_USE_BACKFILL
static qg_backfill backfill;
#endif
#ifdef QG_USE_SLOTS
static qg_slot_table slots;
#endif

#ifdef QG_USE_ANY
static const void *const volatile api[] = {
    (const void *)qg_abi_version,        (const void *)qg_sizeof,
#ifdef QG_USE_SCHEDULER
    (const void *)&scheduler,
    (const void *)qg_scheduler_init,     (const void *)qg_scheduler_register,
    (const void *)qg_scheduler_deregister, (const void *)qg_scheduler_submit_gs,
    (const void *)qg_scheduler_submit_be, (const void *)qg_scheduler_next,
    (const void *)qg_scheduler_complete, (const void *)qg_scheduler_next_finish,
#endif
#ifdef QG_USE_BUCKET
    (const void *)&bucket,
    (const void *)qg_bucket_init,        (const void *)qg_bucket_check,
    (const void *)qg_bucket_charge,      (const void *)qg_bucket_feedback,
    (const void *)qg_bucket_level,       (const void *)qg_bucket_withdraw,
    (const void *)qg_bucket_submitted,   (const void *)qg_bucket_outstanding,
#endif
#ifdef QG_USE_DISPATCH
    (const void *)&billiard,             (const void *)&rtdp,
    (const void *)qg_billiard_init,      (const void *)qg_billiard_next,
    (const void *)qg_rtdp_init,          (const void *)qg_rtdp_next,
    (const void *)qg_pap_solve,
#endif
#ifdef QG_USE_BACKFILL
    (const void *)&backfill,
    (const void *)qg_backfill_init,      (const void *)qg_backfill_submit,
    (const void *)qg_backfill_schedule,  (const void *)qg_backfill_complete,
#endif
#ifdef QG_USE_SLOTS
    (const void *)&slots,
    (const void *)qg_slots_init,         (const void *)qg_slots_earliest_fit,
    (const void *)qg_slots_reserve,      (const void *)qg_slots_release,
    (const void *)qg_slots_free_at,
#endif
#ifdef QG_USE_STATUS
    (const void *)qg_status_str,
#endif
};
#endif

int qg_test_scenario(int *passed) {
    *passed = 0;
#ifdef QG_USE_ANY
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++) {
        *passed += api[i] != NULL;
    }
#endif
    return 0;
}
