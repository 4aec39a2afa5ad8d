/* The reference scenario of docs/firmware.md through the C API: the same steps and expected
 * values as the Rust crate qosgate-ffi-scenario in kernel-ffi/scenario/ (the Rust test
 * `c_program_checks_the_same_values` compares the tables below with it). Freestanding C99: no
 * libc beyond the platform's qg_test_say, so the same file runs on the host and on a Cortex-M3
 * under QEMU. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qosgate.h"
#include "scenario.h"

#define S 1000000ull /* ticks per second */

/* Expected values (kernel-ffi/scenario/src/). */
static const uint32_t DECISION_TASK[] = {100, 100, 1, 2, 100};
static const uint64_t DECISION_WORK[] = {500, 400, 100, 150, 400};
static const uint64_t DECISION_FINISH[] = {5000000, 0, 2000000, 3500000, 7500000};
static const uint32_t DECISION_KIND[] = {QG_DECISION_START, QG_DECISION_PREEMPT, QG_DECISION_START,
                                         QG_DECISION_START, QG_DECISION_START};
static const uint16_t DECISION_FLOW[] = {QG_NO_FLOW, QG_NO_FLOW, 0, 1, QG_NO_FLOW};

static const qg_cluster PAP_CLUSTERS[] = {
    {.theta = 1.0, .omega = 1.25, .local_rate = 0.2, .tau = 2.0, .mu = 4.04},
    {.theta = 0.5, .omega = 0.3125, .local_rate = 0.6, .tau = 1.0, .mu = 1.01},
    {.theta = 0.25, .omega = 0.078125, .local_rate = 0.5, .tau = 0.5, .mu = 0.2525},
};
static const double PAP_Z[] = {2.9154119893606305};
static const double PAP_LAMBDA_HAT[] = {0.01680750746731439, 0.0, 1.9831924925287816};
static const bool PAP_ACTIVE[] = {true, false, true};

static const double DISPATCH_P[] = {0.5, 0.3, 0.2};
static const double RTDP_SHARES[] = {0.25, 0.25, 0.25, 0.25};
static const uint32_t BILLIARD[] = {1, 2, 0, 1, 0, 2, 0, 1, 0, 0};
static const uint32_t RTDP_TYPES[] = {0, 0, 1, 3, 0, 2, 1, 0};
static const uint32_t RTDP[] = {1, 2, 1, 1, 0, 1, 2, 1};

/* The ten-job trace kernel-ffi/tests/data/easy10.swf, seconds, in (submit, id) order. */
#define JOBS 10
static const uint64_t EASY_ID[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
static const uint64_t EASY_SUBMIT[] = {0, 5, 10, 15, 20, 25, 30, 60, 90, 95};
static const uint64_t EASY_RUN[] = {100, 40, 30, 200, 50, 10, 80, 20, 60, 5};
static const uint32_t EASY_NODES[] = {6, 4, 2, 2, 8, 1, 3, 2, 4, 1};
static const uint64_t EASY_ESTIMATE[] = {120, 50, 60, 200, 60, 20, 100, 30, 90, 10};
static const uint64_t EASY_START[] = {0, 100, 10, 40, 240, 100, 140, 110, 290, 100};

/* The GS user's leaky bucket: rho 30 MIPS, sigma 400 MI, imax 200 MI, charged imax and
 * corrected by feedback as far as the refund rule allows (the arithmetic is in run_bucket). */
static const uint64_t BUCKET_CONTRACT[] = {30, 400, 200};
static const uint32_t BUCKET_KNOWLEDGE[] = {QG_KNOWLEDGE_CONSERVATIVE_FEEDBACK};
static const uint64_t BUCKET_BURST[] = {120, 80, 150};
static const uint64_t BUCKET_ACTUAL[] = {120, 80};
static const uint64_t BUCKET_MARKS[] = {200, 400, 600};
static const uint64_t BUCKET_WAITS[] = {6666667, 1, 6666667, 2666667};
static const int64_t BUCKET_LEVELS[] = {400000000, 0, 10, 10, 120000010, 320000010};
static const uint64_t BUCKET_SUBMITTED[] = {400, 600, 520, 400, 200};

static qg_scheduler scheduler;
static qg_billiard billiard;
static qg_rtdp rtdp;
static qg_slot_table slots;
static qg_backfill backfill;
static qg_bucket bucket;

static int passed, failed;

static void check(bool holds, const char *what) {
    if (holds) {
        passed++;
    } else {
        failed++;
        qg_test_say("FAIL");
        qg_test_say(what);
    }
}

/* A call's status against the one expected; names the status on failure. */
static void expect(qg_status got, qg_status want, const char *what) {
    check(got == want, what);
    if (got != want) {
        qg_test_say(qg_status_str(got));
    }
}

static double absd(double x) { return x < 0 ? -x : x; }

static bool near(double x, double want) {
    double scale = absd(want) > 1.0 ? absd(want) : 1.0;
    return absd(x - want) <= 1e-12 * scale;
}

/* The library was built from this header: its ABI version, and its size of every struct of the
 * header, each checked alone (so that a failure names the struct) and through qg_abi_matches. */
static void abi(void) {
    static const struct {
        qg_object kind;
        size_t size;
        const char *what;
    } sizes[] = {
        {QG_OBJECT_SCHEDULER, sizeof(qg_scheduler), "sizeof(qg_scheduler)"},
        {QG_OBJECT_BUCKET, sizeof(qg_bucket), "sizeof(qg_bucket)"},
        {QG_OBJECT_BILLIARD, sizeof(qg_billiard), "sizeof(qg_billiard)"},
        {QG_OBJECT_RTDP, sizeof(qg_rtdp), "sizeof(qg_rtdp)"},
        {QG_OBJECT_SLOT_TABLE, sizeof(qg_slot_table), "sizeof(qg_slot_table)"},
        {QG_OBJECT_BACKFILL, sizeof(qg_backfill), "sizeof(qg_backfill)"},
        {QG_OBJECT_SCHEDULER_CONFIG, sizeof(qg_scheduler_config), "sizeof(qg_scheduler_config)"},
        {QG_OBJECT_REGISTRATION, sizeof(qg_registration), "sizeof(qg_registration)"},
        {QG_OBJECT_DECISION, sizeof(qg_decision), "sizeof(qg_decision)"},
        {QG_OBJECT_COMPLETION, sizeof(qg_completion), "sizeof(qg_completion)"},
        {QG_OBJECT_BUCKET_CONFIG, sizeof(qg_bucket_config), "sizeof(qg_bucket_config)"},
        {QG_OBJECT_CONFORMANCE, sizeof(qg_conformance), "sizeof(qg_conformance)"},
        {QG_OBJECT_CHARGE, sizeof(qg_charge), "sizeof(qg_charge)"},
        {QG_OBJECT_CLUSTER, sizeof(qg_cluster), "sizeof(qg_cluster)"},
        {QG_OBJECT_ALLOCATION, sizeof(qg_allocation), "sizeof(qg_allocation)"},
        {QG_OBJECT_JOB, sizeof(qg_job), "sizeof(qg_job)"},
        {QG_OBJECT_STARTED, sizeof(qg_started), "sizeof(qg_started)"},
        {QG_OBJECT_ENDED, sizeof(qg_ended), "sizeof(qg_ended)"},
    };
    check(qg_abi_version() == QG_ABI_VERSION, "the library's ABI version is the header's");
    check(sizeof sizes / sizeof sizes[0] == QG_OBJECTS, "a size check for every QG_OBJECT_* code");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check(qg_sizeof(sizes[i].kind) == sizes[i].size, sizes[i].what);
    }
    check(qg_sizeof(QG_OBJECTS) == 0, "a code past the structs has no size");
    check(qg_abi_matches(), "qg_abi_matches");
}

static void contract(void) {
    static const uint64_t mips[] = {100};
    qg_scheduler_config config = {QG_KIND_GS_BE_PRIORITY_PREEMPTIVE, QG_DISCIPLINE_WFQ, mips, 1, 1000, 4};
    qg_decision d;
    uint32_t cluster;
    expect(qg_scheduler_next(&scheduler, 0, &d), QG_ERR_UNINITIALISED, "a call on zeroed storage is refused");
    expect(qg_scheduler_next(NULL, 0, &d), QG_ERR_NULL, "a null instance is refused");
    expect(qg_scheduler_init((qg_scheduler *)((char *)&scheduler + 1), sizeof scheduler, &config),
           QG_ERR_MISALIGNED, "misaligned storage is refused");
    expect(qg_scheduler_init(&scheduler, sizeof scheduler - 8, &config), QG_ERR_SIZE, "short storage is refused");
    config.kind = 9;
    expect(qg_scheduler_init(&scheduler, sizeof scheduler, &config), QG_ERR_ARGUMENT,
           "an unknown resource kind is refused");
    expect(qg_billiard_next((qg_billiard *)(void *)&scheduler, &cluster), QG_ERR_UNINITIALISED,
           "a scheduler is not a dispatcher");
    expect(qg_billiard_init(&billiard, sizeof billiard, DISPATCH_P, SIZE_MAX, 0), QG_ERR_DISPATCH_TOO_MANY_CLUSTERS,
           "a count of SIZE_MAX is refused before the array is read");
}

/* A refused call changes nothing: a refused init leaves the live object, a refused submission
 * leaves the clock. The submission refused for overflow needs 129 queued maximal tasks: a
 * library of fewer queue entries (the small capacity preset) cannot reach it. */
static void refusals(void) {
    int64_t free_nodes;
    expect(qg_slots_init(&slots, sizeof slots, 8), QG_OK, "slots init");
    expect(qg_slots_reserve(&slots, 0, 10, 6), QG_OK, "reserve 6 nodes");
    expect(qg_slots_init(&slots, sizeof slots, 0), QG_ERR_PARAM_CAPACITY, "a re-init of zero nodes is refused");
    expect(qg_slots_free_at(&slots, 5, &free_nodes), QG_OK, "the refused re-init left the table");
    check(free_nodes == 2, "the reservation is still there");
#if QG_MAX_QUEUE > 128
    static const uint64_t mips[] = {100};
    const qg_scheduler_config config = {QG_KIND_GS, QG_DISCIPLINE_WFQ, mips, 1, 1ull << 39, 4};
    const qg_registration user = {1, 1, 1ull << 39, 1ull << 39, QG_KNOWLEDGE_EXACT, 0, 0};
    uint16_t big, small;
    expect(qg_scheduler_init(&scheduler, sizeof scheduler, &config), QG_OK, "scheduler init");
    expect(qg_scheduler_register(&scheduler, &user, &big), QG_OK, "a user");
    expect(qg_scheduler_register(&scheduler, &user, &small), QG_OK, "another user");
    for (uint32_t id = 0; id < 128; id++) {
        expect(qg_scheduler_submit_gs(&scheduler, 0, big, id, 1ull << 39), QG_OK, "128 maximal tasks");
    }
    expect(qg_scheduler_submit_gs(&scheduler, 2000, big, 128, 1ull << 39), QG_ERR_OVERFLOW,
           "a tag too far ahead is refused");
    expect(qg_scheduler_submit_gs(&scheduler, 1000, small, 129, 1), QG_OK,
           "the refusal at t = 2000 left the clock before t = 1000");
#endif
}

/* What a callback that calls back into its own backfilling scheduler gets. */
struct reentry {
    int starts;
    qg_status schedule, submit;
};

static void reenter(void *context, const qg_started *s) {
    struct reentry *r = context;
    const qg_job job = {100, 0, 1, 5};
    (void)s;
    r->starts++;
    r->schedule = qg_backfill_schedule(&backfill, 0, reenter, context, NULL);
    r->submit = qg_backfill_submit(&backfill, 0, &job);
}

static void reentrant_callback(void) {
    struct reentry r = {0, QG_OK, QG_OK};
    size_t started = 0;
    expect(qg_backfill_init(&backfill, sizeof backfill, QG_POLICY_FCFS, 0, 4), QG_OK, "backfill init");
    for (uint64_t id = 0; id < 4; id++) {
        const qg_job job = {id, 0, 1, 10};
        expect(qg_backfill_submit(&backfill, 0, &job), QG_OK, "a job is submitted");
    }
    expect(qg_backfill_schedule(&backfill, 0, reenter, &r, &started), QG_OK, "a pass with a re-entering callback");
    check(r.starts == 4 && started == 4, "each of the 4 jobs starts once");
    expect(r.schedule, QG_ERR_BUSY, "a pass from inside the callback is refused");
    expect(r.submit, QG_ERR_BUSY, "a submission from inside the callback is refused");
}

/* Asks for decisions at `now` until there is none, checking each against the next expected. */
static void drain(uint64_t now, int *n) {
    qg_decision d;
    qg_status st;
    while ((st = qg_scheduler_next(&scheduler, now, &d)) == QG_OK) {
        int i = *n;
        check(i < 5, "five decisions");
        if (i >= 5) {
            return;
        }
        check(d.kind == DECISION_KIND[i] && d.cpu == 0 && d.task_id == DECISION_TASK[i] &&
                  d.work == DECISION_WORK[i] && d.flow == DECISION_FLOW[i] && d.finish == DECISION_FINISH[i] &&
                  d.task_class == (DECISION_FLOW[i] == QG_NO_FLOW ? QG_CLASS_BE : QG_CLASS_GS),
              "the scheduler decides as expected");
        *n = i + 1;
    }
    expect(st, QG_NONE, "decisions end with QG_NONE");
}

static void run_scheduler(void) {
    static const uint64_t mips[] = {100};
    const qg_scheduler_config config = {QG_KIND_GS_BE_PRIORITY_PREEMPTIVE, QG_DISCIPLINE_WFQ, mips, 1, 1000, 4};
    const qg_registration user = {1, 40, 400, 200, QG_KNOWLEDGE_EXACT, 0, 0};
    static const uint64_t when[] = {2 * S, 3 * S + S / 2, 7 * S + S / 2};
    static const uint32_t ends[] = {1, 2, 100};
    uint16_t u1, u2, u3, cpu;
    uint64_t at;
    qg_completion done;
    int n = 0;
    expect(qg_scheduler_init(&scheduler, sizeof scheduler, &config), QG_OK, "scheduler init");
    expect(qg_scheduler_register(&scheduler, &user, &u1), QG_OK, "GS user 1 registers");
    expect(qg_scheduler_register(&scheduler, &user, &u2), QG_OK, "GS user 2 registers");
    expect(qg_scheduler_register(&scheduler, &user, &u3), QG_ERR_RATE_EXCEEDS_SHARE, "a third user breaks Eq. 1");
    check(u1 == 0 && u2 == 1, "flows 0 and 1");
    expect(qg_scheduler_submit_be(&scheduler, 0, 100, 500), QG_OK, "BE task at 0 s");
    drain(0, &n);
    expect(qg_scheduler_submit_gs(&scheduler, S, u1, 9, 300), QG_ERR_TASK_TOO_LARGE, "a task above imax is refused");
    expect(qg_scheduler_submit_gs(&scheduler, S, u1, 1, 100), QG_OK, "GS task 1");
    expect(qg_scheduler_submit_gs(&scheduler, S, u2, 2, 150), QG_OK, "GS task 2");
    drain(S, &n);
    for (int i = 0; i < 3; i++) {
        expect(qg_scheduler_next_finish(&scheduler, &cpu, &at), QG_OK, "a task is running");
        check(cpu == 0 && at == when[i], "it ends when its decision said");
        expect(qg_scheduler_complete(&scheduler, when[i], 0, &done), QG_OK, "the task completes");
        check(done.task_id == ends[i], "the completed task is the one started");
        drain(when[i], &n);
    }
    expect(qg_scheduler_next_finish(&scheduler, &cpu, &at), QG_NONE, "nothing runs at the end");
    check(n == 5, "five decisions");
}

static void run_pap(void) {
    qg_allocation a;
    double total = 0;
    expect(qg_pap_solve(PAP_CLUSTERS, 3, 2.0, 1e-9, &a), QG_OK, "PAP solves");
    check(a.clusters == 3, "PAP: three clusters");
    check(near(a.z, PAP_Z[0]), "PAP: z");
    for (int j = 0; j < 3; j++) {
        check(near(a.lambda_hat[j], PAP_LAMBDA_HAT[j]), "PAP: rates");
        check(a.active[j] == PAP_ACTIVE[j], "PAP: active set");
        total += a.lambda_hat[j];
    }
    check(absd(total - 2.0) <= 1e-9 * 2.0, "PAP: rates add up");
}

static void run_dispatch(void) {
    uint32_t c;
    expect(qg_billiard_init(&billiard, sizeof billiard, DISPATCH_P, 3, 0), QG_OK, "billiard init");
    for (int i = 0; i < 10; i++) {
        expect(qg_billiard_next(&billiard, &c), QG_OK, "billiard decision");
        check(c == BILLIARD[i], "the billiard sequence");
    }
    expect(qg_rtdp_init(&rtdp, sizeof rtdp, DISPATCH_P, 3, RTDP_SHARES, 4, 0), QG_OK, "RTDP init");
    for (int i = 0; i < 8; i++) {
        expect(qg_rtdp_next(&rtdp, RTDP_TYPES[i], &c), QG_OK, "RTDP decision");
        check(c == RTDP[i], "the RTDP sequence");
    }
    expect(qg_rtdp_next(&rtdp, 4, &c), QG_ERR_DISPATCH_UNKNOWN_TYPE, "an unknown request type is refused");
}

static void run_slots(void) {
    uint64_t start;
    int64_t free_nodes;
    expect(qg_slots_init(&slots, sizeof slots, 8), QG_OK, "slots init");
    expect(qg_slots_reserve(&slots, 0, 10 * S, 6), QG_OK, "reserve 6 nodes");
    expect(qg_slots_earliest_fit(&slots, 0, 4, 5 * S, &start), QG_OK, "4 nodes fit");
    check(start == 10 * S, "after the reservation");
    expect(qg_slots_reserve(&slots, 0, 5 * S, 4), QG_ERR_NOT_FREE, "an overlap is refused");
    expect(qg_slots_free_at(&slots, 5 * S, &free_nodes), QG_OK, "free at 5 s");
    check(free_nodes == 2, "2 nodes free");
    expect(qg_slots_release(&slots, 0, 10 * S, 7), QG_ERR_NOT_RESERVED, "releasing more than reserved is refused");
    expect(qg_slots_release(&slots, 0, 10 * S, 6), QG_OK, "release");
    expect(qg_slots_free_at(&slots, 5 * S, &free_nodes), QG_OK, "free at 5 s again");
    check(free_nodes == 8, "all 8 nodes free");
}

/* The replay's record: start (seconds) and end (ticks) of each job; UINT64_MAX for none. */
struct replay {
    uint64_t start[JOBS];
    uint64_t end[JOBS];
};

static void on_start(void *context, const qg_started *s) {
    struct replay *r = context;
    for (int j = 0; j < JOBS; j++) {
        if (EASY_ID[j] == s->id) {
            r->start[j] = s->start / S;
            r->end[j] = s->start + EASY_RUN[j] * S;
        }
    }
}

/* The EASY replay, instant by instant: completions, arrivals, one pass. */
static void run_easy(void) {
    struct replay r;
    int next = 0;
    uint64_t now = 0;
    for (int j = 0; j < JOBS; j++) {
        r.start[j] = r.end[j] = UINT64_MAX;
    }
    expect(qg_backfill_init(&backfill, sizeof backfill, QG_POLICY_EASY, 0, 8), QG_OK, "backfill init");
    for (;;) {
        uint64_t t = UINT64_MAX;
        for (int j = 0; j < JOBS; j++) {
            if (r.end[j] == now) {
                expect(qg_backfill_complete(&backfill, now, EASY_ID[j], NULL), QG_OK, "a job completes");
                r.end[j] = UINT64_MAX;
            }
        }
        while (next < JOBS && EASY_SUBMIT[next] * S == now) {
            const qg_job job = {EASY_ID[next], EASY_SUBMIT[next] * S, EASY_NODES[next], EASY_ESTIMATE[next] * S};
            expect(qg_backfill_submit(&backfill, now, &job), QG_OK, "a job is submitted");
            next++;
        }
        expect(qg_backfill_schedule(&backfill, now, on_start, &r, NULL), QG_OK, "a scheduling pass");
        if (next < JOBS) {
            t = EASY_SUBMIT[next] * S;
        }
        for (int j = 0; j < JOBS; j++) {
            if (r.end[j] < t) {
                t = r.end[j];
            }
        }
        if (t == UINT64_MAX) {
            break;
        }
        now = t;
    }
    for (int j = 0; j < JOBS; j++) {
        check(r.start[j] == EASY_START[j], "the EASY start times");
    }
}

/* A GS user's leaky bucket at the gateway, before its tasks go to a scheduler. By hand, in
 * instructions (1 MI = 10^6; rho 30 MIPS refills 30 per tick):
 * - at 0 s the bucket is full: sigma = 400 MI = 400,000,000;
 * - tasks of 120 and 80 MI conform and are charged imax = 200 MI each: credit 0, J = 400 MI;
 *   their receipts carry the marks 200 and 400 (the work charged so far, MI);
 * - the third (150 MI) needs 200,000,000: withheld ceil(200,000,000 / 30) = ceil(6,666,666.7)
 *   = 6,666,667 ticks; its charge is refused. Call T = 6,666,667;
 * - at T - 1 the credit is 30 x 6,666,666 = 199,999,980, 20 short: ceil(20 / 30) = 1 tick;
 * - at T it is 200,000,010: the task conforms and is charged 200 MI, leaving 10; mark 600,
 *   J = 600 MI, 3 tasks await feedback;
 * - feedback on the first task (charged 200, did 120 MI): a refund of 80 MI, but the refund
 *   rule lifts the credit to at most sigma less the work charged after the task, 600 - 200 =
 *   400 MI = sigma: to 0, below the 10 it has, so the credit stays 10. J = 520 MI,
 *   2 outstanding; a 200 MI task is 199,999,990 short: ceil(6,666,666.3) = 6,666,667 ticks;
 * - feedback on the second (charged 200, did 80 MI): a refund of 120 MI, capped at sigma less
 *   the 600 - 400 = 200 MI charged after it, 200,000,000: the credit rises to
 *   min(10 + 120,000,000, 200,000,000) = 120,000,010. J = 400 MI, 1 outstanding; a 200 MI
 *   task is 79,999,990 short: ceil(2,666,666.3) = 2,666,667 ticks;
 * - the third task is withdrawn (not served in the guaranteed class): a refund of its whole
 *   200 MI charge, nothing having been charged after it (cap 400,000,000): credit 320,000,010,
 *   J = 200 MI, nothing outstanding; a 200 MI task conforms at once, and a second withdrawal
 *   is refused (QG_ERR_UNKNOWN: no task awaits feedback). */
static void run_bucket(void) {
    const qg_bucket_config config = {BUCKET_CONTRACT[0], BUCKET_CONTRACT[1], BUCKET_CONTRACT[2],
                                     BUCKET_KNOWLEDGE[0], 0};
    const uint64_t imax = BUCKET_CONTRACT[2], t = BUCKET_WAITS[0];
    const qg_charge empty = {9, 9};
    uint64_t waits[4] = {0}, submitted[5] = {0};
    int64_t levels[6] = {0};
    qg_charge receipts[3] = {empty, empty, empty};
    uint16_t outstanding = 0;
    qg_conformance c = {9, 9};
    expect(qg_bucket_init(&bucket, sizeof bucket, 0, &config), QG_OK, "bucket init");
    expect(qg_bucket_level(&bucket, 0, &levels[0]), QG_OK, "credit at 0 s");
    for (int i = 0; i < 2; i++) {
        expect(qg_bucket_check(&bucket, 0, BUCKET_BURST[i], &c), QG_OK, "a burst task is checked");
        check(c.kind == QG_CONFORMANCE_NOW, "it conforms");
        expect(qg_bucket_charge(&bucket, 0, BUCKET_BURST[i], &receipts[i]), QG_OK, "a burst task is charged");
        check(receipts[i].charged == imax, "it is charged imax");
    }
    expect(qg_bucket_level(&bucket, 0, &levels[1]), QG_OK, "credit spent");
    expect(qg_bucket_submitted(&bucket, &submitted[0]), QG_OK, "J after the burst");
    expect(qg_bucket_check(&bucket, 0, BUCKET_BURST[2], &c), QG_OK, "the third task is checked");
    check(c.kind == QG_CONFORMANCE_AFTER, "it must wait");
    waits[0] = c.wait;
    expect(qg_bucket_charge(&bucket, 0, BUCKET_BURST[2], &receipts[2]), QG_ERR_NON_CONFORMING,
           "its charge is refused");
    check(receipts[2].charged == empty.charged && receipts[2].mark == empty.mark,
          "a refused charge writes no receipt");
    expect(qg_bucket_check(&bucket, 0, imax + 1, &c), QG_ERR_TASK_TOO_LARGE, "a task above imax is refused");
    expect(qg_bucket_check(&bucket, t - 1, BUCKET_BURST[2], &c), QG_OK, "one tick early");
    check(c.kind == QG_CONFORMANCE_AFTER, "still waits");
    waits[1] = c.wait;
    expect(qg_bucket_check(&bucket, t, BUCKET_BURST[2], &c), QG_OK, "on time");
    check(c.kind == QG_CONFORMANCE_NOW, "it conforms after the wait");
    expect(qg_bucket_charge(&bucket, t, BUCKET_BURST[2], &receipts[2]), QG_OK, "the third task is charged");
    check(receipts[2].charged == imax, "imax again");
    for (int i = 0; i < 3; i++) {
        check(receipts[i].mark == BUCKET_MARKS[i], "the receipts' marks");
    }
    expect(qg_bucket_level(&bucket, t, &levels[2]), QG_OK, "credit left");
    expect(qg_bucket_submitted(&bucket, &submitted[1]), QG_OK, "J after the third task");
    expect(qg_bucket_outstanding(&bucket, &outstanding), QG_OK, "outstanding tasks");
    check(outstanding == 3, "three await feedback");
    expect(qg_bucket_feedback(&bucket, t, &receipts[0], BUCKET_ACTUAL[0]), QG_OK, "feedback on the first task");
    expect(qg_bucket_level(&bucket, t, &levels[3]), QG_OK, "no refund: sigma charged after it");
    expect(qg_bucket_submitted(&bucket, &submitted[2]), QG_OK, "J corrected");
    expect(qg_bucket_check(&bucket, t, imax, &c), QG_OK, "a maximal task is checked");
    check(c.kind == QG_CONFORMANCE_AFTER, "it must wait");
    waits[2] = c.wait;
    expect(qg_bucket_feedback(&bucket, t, &receipts[1], BUCKET_ACTUAL[1]), QG_OK, "feedback on the second task");
    expect(qg_bucket_level(&bucket, t, &levels[4]), QG_OK, "a refund up to the cap");
    expect(qg_bucket_submitted(&bucket, &submitted[3]), QG_OK, "J corrected");
    expect(qg_bucket_check(&bucket, t, imax, &c), QG_OK, "the maximal task again");
    check(c.kind == QG_CONFORMANCE_AFTER, "it still waits");
    waits[3] = c.wait;
    expect(qg_bucket_outstanding(&bucket, &outstanding), QG_OK, "outstanding tasks");
    check(outstanding == 1, "one awaits feedback");
    expect(qg_bucket_withdraw(&bucket, t, NULL), QG_ERR_NULL, "a withdrawal needs its receipt");
    expect(qg_bucket_withdraw(&bucket, t, &receipts[2]), QG_OK, "the third task is withdrawn");
    expect(qg_bucket_level(&bucket, t, &levels[5]), QG_OK, "its whole charge refunded");
    expect(qg_bucket_submitted(&bucket, &submitted[4]), QG_OK, "J without it");
    expect(qg_bucket_outstanding(&bucket, &outstanding), QG_OK, "outstanding tasks");
    check(outstanding == 0, "none awaits feedback");
    expect(qg_bucket_check(&bucket, t, imax, &c), QG_OK, "the maximal task once more");
    check(c.kind == QG_CONFORMANCE_NOW, "it conforms now");
    expect(qg_bucket_withdraw(&bucket, t, &receipts[2]), QG_ERR_UNKNOWN, "a second withdrawal is refused");
    for (int i = 0; i < 4; i++) {
        check(waits[i] == BUCKET_WAITS[i], "the bucket's waits");
    }
    for (int i = 0; i < 6; i++) {
        check(levels[i] == BUCKET_LEVELS[i], "the bucket's credit");
    }
    for (int i = 0; i < 5; i++) {
        check(submitted[i] == BUCKET_SUBMITTED[i], "the bucket's J(t)");
    }
}

int qg_test_scenario(int *passes) {
    passed = failed = 0;
    abi();
    contract();
    refusals();
    reentrant_callback();
    run_scheduler();
    run_pap();
    run_dispatch();
    run_slots();
    run_easy();
    run_bucket();
    *passes = passed;
    return failed;
}
