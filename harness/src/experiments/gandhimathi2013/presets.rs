//! Built-in scenarios: the simulations of gandhimathi2013 Sec. IV ([`Variant::scenario`]) and the
//! presets `qosgate presets` lists.
//!
//! A [`Variant`] is one point of the experiments by named fields (its `Debug` form is its key):
//! the scheduler, alpha (percent), the arrival-gap divisor, the share of reservations
//! (percent), the mapping, FCFS's choice of cloud (the mode: literal E25's earliest start,
//! calibrated the application's own cloud) and the queue order (`assigned`, or the other
//! reading `ready`). Every other parameter is the paper's or E25's ([`super::params`]);
//! the traces are the compiled cut-downs, or the full traces under `QOSGATE_TRACES`, with the
//! window [`params::jobs`].

use anyhow::{Result, anyhow};

use super::params::{self, DATA_CENTERS};
use crate::config::Header;
use crate::experiments::Simulation;
use crate::models::ScenarioFile;
use crate::models::multicloud::scenario::{
    CloudConfig, DagShape, FcfsCloud, FeedbackFrom, MappingKind, Power, PreemptionKind, QueueOrder,
    Scenario, SchedulerKind, Widths,
};
use crate::models::multicloud::traces;
use crate::report::Mode;

/// Replications of a variant (E25: 10 seeds with 95 % intervals).
pub const REPLICATIONS: u32 = 10;

/// One point of gandhimathi2013's experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Variant {
    /// FCFS, DCLS or DCMMS.
    pub scheduler: SchedulerKind,
    /// Alpha, percent (0 for FCFS, which has none).
    pub alpha_pct: u8,
    /// Arrival gaps divided by this (1 loose, 100 tight).
    pub divisor: u32,
    /// Share of reservations, percent.
    pub ar_pct: u8,
    /// The mapping onto servers.
    pub mapping: MappingKind,
    /// Where FCFS sends a task (kept at the literal reading for DCLS and DCMMS, which do not
    /// read it, so their runs serve both modes).
    pub fcfs: FcfsCloud,
    /// The order a cloud serves its ready best-effort tasks in.
    pub queue: QueueOrder,
    /// The instant a finished task's `delta_tau` (Eq. 6) is measured from (kept at the main
    /// reading, its actual start, where no feedback is used: FCFS, alpha 0).
    pub feedback: FeedbackFrom,
    /// The control workload: tasks of [`params::CONTROL_WIDTHS`] VMs instead of the traces'
    /// whole-node widths (the same applications otherwise).
    pub control: bool,
}

impl Variant {
    /// `scheduler` at `alpha_pct` with `divisor`, 20 % reservations, energy-aware mapping (FCFS
    /// has no alpha: it is kept at 0 so every FCFS point is one variant).
    pub fn new(scheduler: SchedulerKind, alpha_pct: u8, divisor: u32) -> Self {
        Self {
            scheduler,
            alpha_pct: if scheduler == SchedulerKind::Fcfs {
                0
            } else {
                alpha_pct
            },
            divisor,
            ar_pct: params::AR_PCT,
            mapping: MappingKind::EnergyAware,
            fcfs: FcfsCloud::EarliestStart,
            queue: QueueOrder::Assigned,
            feedback: FeedbackFrom::Start,
            control: false,
        }
    }

    /// The same in `mode`: the calibrated mode's one change is FCFS's cloud, the application's
    /// own ([`FcfsCloud::HomeCloud`]); DCLS and DCMMS are the same runs in both modes.
    pub fn in_mode(self, mode: Mode) -> Self {
        let fcfs = match (self.scheduler, mode) {
            (SchedulerKind::Fcfs, Mode::Calibrated) => FcfsCloud::HomeCloud,
            _ => FcfsCloud::EarliestStart,
        };
        Self { fcfs, ..self }
    }

    /// The same with the queue order `queue`.
    pub fn with_queue(self, queue: QueueOrder) -> Self {
        Self { queue, ..self }
    }

    /// The same with the feedback measured from `feedback`, where a feedback is used (DCLS
    /// and DCMMS at alpha > 0; the others keep [`FeedbackFrom::Start`], so each is one run).
    pub fn with_feedback(self, feedback: FeedbackFrom) -> Self {
        let used = self.scheduler != SchedulerKind::Fcfs && self.alpha_pct > 0;
        Self {
            feedback: if used { feedback } else { FeedbackFrom::Start },
            ..self
        }
    }

    /// The same with `ar_pct` percent of reservations.
    pub fn with_ar(self, ar_pct: u8) -> Self {
        Self { ar_pct, ..self }
    }

    /// The same on the control workload (tasks of [`params::CONTROL_WIDTHS`] VMs).
    pub fn control(self) -> Self {
        Self {
            control: true,
            ..self
        }
    }

    /// The same with another mapping.
    pub fn with_mapping(self, mapping: MappingKind) -> Self {
        Self { mapping, ..self }
    }

    /// `gandhimathi2013-dcmms-a80-g100-ar20-energy_aware` (`fcfs_home-...` for the calibrated
    /// FCFS, `-ready` at the end for the other queue order, `-fd_erat` and `-fd_ready` for the
    /// feedback from the planned ERAT and from the instant a task was ready, `-w1_16` for the
    /// control workload).
    fn name(&self) -> String {
        format!(
            "gandhimathi2013-{}-a{}-g{}-ar{}-{}{}{}{}",
            self.scheduler_label().to_lowercase().replace(' ', "_"),
            self.alpha_pct,
            self.divisor,
            self.ar_pct,
            mapping_name(self.mapping).replace(['-', ' '], "_"),
            match self.queue {
                QueueOrder::Assigned => "",
                QueueOrder::Ready => "-ready",
            },
            match self.feedback {
                FeedbackFrom::Start => "",
                FeedbackFrom::Erat => "-fd_erat",
                FeedbackFrom::Ready => "-fd_ready",
            },
            if self.control {
                let (min, max) = params::CONTROL_WIDTHS;
                format!("-w{min}_{max}")
            } else {
                String::new()
            }
        )
    }

    /// `FCFS`, `FCFS home`, `DCLS`, `DCMMS`.
    pub fn scheduler_label(&self) -> &'static str {
        match (self.scheduler, self.fcfs) {
            (SchedulerKind::Fcfs, FcfsCloud::HomeCloud) => "FCFS home",
            (s, _) => scheduler_name(s),
        }
    }
}

impl Simulation for Variant {
    type Scenario = Scenario;

    /// Its scenario.
    ///
    /// Errors: a scenario the model's checks refuse (a bug: the message names it).
    fn scenario(&self) -> Result<Scenario> {
        let s = Scenario {
            header: Header {
                name: self.name(),
                description: format!(
                    "gandhimathi2013: {}, alpha {:.1}, {} % reservations, arrival gaps / {}, {} mapping, \
                     queue in {} order, feedback from {}{}",
                    self.scheduler_label(),
                    f64::from(self.alpha_pct) / 100.0,
                    self.ar_pct,
                    self.divisor,
                    mapping_name(self.mapping),
                    queue_name(self.queue),
                    feedback_name(self.feedback),
                    if self.control {
                        let (min, max) = params::CONTROL_WIDTHS;
                        format!(", control workload: tasks of {min}-{max} VMs")
                    } else {
                        String::new()
                    }
                ),
                seed: params::SEED,
                replications: REPLICATIONS,
            },
            scheduler: self.scheduler,
            fcfs: self.fcfs,
            queue: self.queue,
            alpha: f64::from(self.alpha_pct) / 100.0,
            feedback_from: self.feedback,
            mapping: self.mapping,
            preemption: PreemptionKind::Mlip,
            ar_share: f64::from(self.ar_pct) / 100.0,
            ar_notice_max_s: params::AR_NOTICE_MAX_S,
            gap_divisor: f64::from(self.divisor),
            image_s: params::IMAGE_S,
            dataset_s: params::DATASET_S,
            power: Power {
                active: params::POWER.0,
                idle: params::POWER.1,
            },
            dag: DagShape {
                max_tasks: 64,
                entry_probability: 0.1,
                max_preds: 3,
            },
            widths: self.control.then(|| {
                let (min, max) = params::CONTROL_WIDTHS;
                Widths { min, max }
            }),
            clouds: DATA_CENTERS
                .iter()
                .enumerate()
                .map(|(i, d)| CloudConfig {
                    name: d.name.into(),
                    servers: d.servers,
                    vms_per_server: d.cores,
                    performance: d.performance,
                    trace: traces::preferred(d.trace),
                    width_scale: d.width_scale,
                    jobs: params::jobs(i),
                })
                .collect(),
        };
        s.validate().map_err(|e| anyhow!("variant {self:?}: {e}"))?;
        Ok(s)
    }
}

/// `FCFS`, `DCLS`, `DCMMS`.
pub fn scheduler_name(s: SchedulerKind) -> &'static str {
    match s {
        SchedulerKind::Fcfs => "FCFS",
        SchedulerKind::Dcls => "DCLS",
        SchedulerKind::Dcmms => "DCMMS",
    }
}

/// `energy-aware`, `first-fit by VM`, `first-fit by task`, `worst-fit`.
pub fn mapping_name(m: MappingKind) -> &'static str {
    match m {
        MappingKind::EnergyAware => "energy-aware",
        MappingKind::FirstFit => "first-fit by VM",
        MappingKind::FirstFitTask => "first-fit by task",
        MappingKind::WorstFit => "worst-fit",
    }
}

/// `ready`, `assigned`.
fn queue_name(q: QueueOrder) -> &'static str {
    match q {
        QueueOrder::Ready => "ready",
        QueueOrder::Assigned => "assigned",
    }
}

/// `actual start`, `planned ERAT`, `ready`.
fn feedback_name(f: FeedbackFrom) -> &'static str {
    match f {
        FeedbackFrom::Start => "actual start",
        FeedbackFrom::Erat => "planned ERAT",
        FeedbackFrom::Ready => "ready",
    }
}

/// The presets: each scheduler at alpha 0.8, 20 % reservations, energy-aware mapping, loose
/// and tight (`gandhimathi2013-dcmms-loose`, ...), and the calibrated mode's FCFS
/// (`gandhimathi2013-fcfs_home-loose`, ...).
///
/// Errors: a preset that cannot be built (a bug).
pub fn all() -> Result<Vec<Scenario>> {
    let mut all = Vec::new();
    let schedulers = [
        (SchedulerKind::Fcfs, Mode::Literal),
        (SchedulerKind::Fcfs, Mode::Calibrated),
        (SchedulerKind::Dcls, Mode::Literal),
        (SchedulerKind::Dcmms, Mode::Literal),
    ];
    for (scheduler, mode) in schedulers {
        for (situation, divisor) in [("loose", params::LOOSE), ("tight", params::TIGHT)] {
            let v = Variant::new(scheduler, params::ALPHA_TABLES_PCT, divisor).in_mode(mode);
            let mut s = v.scenario()?;
            s.header.name = format!(
                "gandhimathi2013-{}-{situation}",
                v.scheduler_label().to_lowercase().replace(' ', "_")
            );
            all.push(s);
        }
    }
    Ok(all)
}
