//! The caller's side of the contract that the API checks: each mistake is a status, and leaves
//! the object as it was.

use qosgate_ffi::qg_status::{self, *};
use qosgate_ffi::scheduler::*;

fn config(mips: &[u64; 1], kind: u32) -> qg_scheduler_config {
    qg_scheduler_config {
        kind,
        discipline: QG_DISCIPLINE_WFQ,
        cpu_mips: mips.as_ptr(),
        cpus: 1,
        max_task: 1000,
        max_flows: 4,
    }
}

fn next(s: &mut qg_scheduler, decision: *mut qg_decision) -> qg_status {
    // SAFETY: `s` is a live storage; `decision` is null, misaligned (both refused) or a live local.
    unsafe { qg_scheduler_next(s, 0, decision) }
}

#[test]
fn failed_init_leaves_the_storage_uninitialised() {
    let mut s = Box::new(qg_scheduler::zeroed());
    let mips = [100];
    let size = size_of::<qg_scheduler>();
    // SAFETY: live storage of `size` bytes and a live configuration.
    unsafe {
        assert_eq!(
            qg_scheduler_init(&mut *s, size, &config(&mips, QG_KIND_BE)),
            QG_OK
        );
        assert_eq!(qg_scheduler_submit_be(&mut *s, 0, 1, 10), QG_OK);
        let zero_cpu = [0];
        let st = qg_scheduler_init(&mut *s, size, &config(&zero_cpu, QG_KIND_BE));
        assert_eq!(st, QG_ERR_PARAM_CAPACITY);
        assert_eq!(
            qg_scheduler_submit_be(&mut *s, 0, 2, 10),
            QG_ERR_UNINITIALISED
        );
    }
}

#[test]
fn a_bad_output_pointer_is_refused_before_anything_changes() {
    let mut s = Box::new(qg_scheduler::zeroed());
    let mips = [100];
    let size = size_of::<qg_scheduler>();
    // SAFETY: live storage of `size` bytes and a live configuration.
    unsafe {
        assert_eq!(
            qg_scheduler_init(&mut *s, size, &config(&mips, QG_KIND_BE)),
            QG_OK
        );
        assert_eq!(qg_scheduler_submit_be(&mut *s, 0, 7, 10), QG_OK);
    }
    let mut buffer = [0u64; 8];
    let misaligned = buffer
        .as_mut_ptr()
        .cast::<u8>()
        .wrapping_add(4)
        .cast::<qg_decision>();
    assert_eq!(next(&mut s, std::ptr::null_mut()), QG_ERR_NULL);
    assert_eq!(next(&mut s, misaligned), QG_ERR_MISALIGNED);
    // The task was not started by the refused calls: the next good call starts it.
    let mut d = std::mem::MaybeUninit::<qg_decision>::uninit();
    assert_eq!(next(&mut s, d.as_mut_ptr()), QG_OK);
    // SAFETY: QG_OK wrote the decision.
    assert_eq!(unsafe { d.assume_init() }.task_id, 7);
    assert_eq!(next(&mut s, d.as_mut_ptr()), QG_NONE);
}

#[test]
fn out_of_range_codes_and_oversized_arrays_are_refused() {
    let mut s = Box::new(qg_scheduler::zeroed());
    let mips = [100];
    let size = size_of::<qg_scheduler>();
    let mut c = config(&mips, QG_KIND_GS);
    c.discipline = 2;
    let user = qg_registration {
        weight: 1,
        rho: 10,
        sigma: 100,
        imax: 100,
        knowledge: 5,
        window: 0,
    };
    let mut flow = 0;
    // SAFETY: live storage of `size` bytes, live configurations and outputs.
    unsafe {
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_ERR_ARGUMENT);
        let many = [100u64; 33];
        c.discipline = QG_DISCIPLINE_SCFQ;
        c.cpu_mips = many.as_ptr();
        c.cpus = many.len();
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_ERR_PARAM_CAPACITY);
        c.cpus = 32;
        assert_eq!(qg_scheduler_init(&mut *s, size, &c), QG_OK);
        let st = qg_scheduler_register(&mut *s, &user, &mut flow);
        assert_eq!(st, QG_ERR_ARGUMENT);
    }
}
