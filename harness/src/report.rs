//! Plain-text rendering: aligned tables and the `bounds` report.

use std::fmt::Write as _;

use crate::bounds::{self, Report, Row};

/// Column alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// Renders `rows` under `headers` as columns separated by two spaces, with a dashed rule under
/// the header. Trailing spaces are trimmed. Widths count `char`s.
pub fn table(headers: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|(h, _)| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::new();
        for ((cell, (_, align)), w) in cells.zip(headers).zip(&widths) {
            if !s.is_empty() {
                s.push_str("  ");
            }
            let pad = w.saturating_sub(cell.chars().count());
            match align {
                Align::Left => {
                    s.push_str(cell);
                    s.extend(std::iter::repeat_n(' ', pad));
                }
                Align::Right => {
                    s.extend(std::iter::repeat_n(' ', pad));
                    s.push_str(cell);
                }
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut out, &mut headers.iter().map(|(h, _)| *h));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(&mut out, &mut rule.iter().map(String::as_str));
    for row in rows {
        line(&mut out, &mut row.iter().map(String::as_str));
    }
    out
}

/// Greedy word wrap of `text` to `width` columns.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut col = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if col > 0 && col + 1 + n > width {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += n;
    }
    out.push('\n');
    out
}

/// The `qosgate bounds` table, with its heading and legend.
pub fn bounds_table(rep: &Report) -> String {
    use Align::{Left, Right};
    let headers = [
        ("user", Left),
        ("res", Left),
        ("kind", Left),
        ("disc", Left),
        ("layout", Left),
        ("outcome", Left),
        ("g_res MIPS", Right),
        ("g_cur MIPS", Right),
        ("bound_res s", Right),
        ("bound_cur s", Right),
        ("e2e_res s", Right),
        ("e2e_cur s", Right),
        ("deadline s (1.10 x e2e_cur)", Right),
    ];
    let rows: Vec<Vec<String>> = rep.rows.iter().map(cells).collect();
    let mut out = String::new();
    let heading = format!(
        "qosgate bounds: the seed-004 grid (users of Tables 2-3, resources of Table 5, \
         registrations of Sec. 6.4), I_r^max = {} MI at every resource, --max-users {}. \
         End to end (e2e) = max(T, d) + bound with T = 0 s and d = {} s (--pipelined-delay). \
         Deadline = 1.10 x e2e_cur (SPEC-NOTES N6).",
        grouped(rep.max_task),
        rep.max_users,
        short_secs(rep.transfer),
    );
    out.push_str(&wrap(&heading, 100));
    out.push('\n');
    out.push_str(&table(&headers, &rows));
    let refused = rep.rows.iter().filter(|r| !r.registered).count();
    if refused > 0 {
        let _ = writeln!(
            out,
            "\n{refused} of {} registrations refused (see the outcome column).",
            rep.rows.len()
        );
    }
    out.push('\n');
    out.push_str(&wrap(LEGEND, 100));
    out
}

const LEGEND: &str = "Legend. res = reserved basis: g = rho, the user's own rate. Every \
registration re-checks Eq. 1 for every registered user, so the user's share never drops below rho: \
a reserved-basis bound holds for the whole life of the registration, whatever registers or leaves \
later. cur = current basis: g = C' w / W, the share with the users registered now (Table 1's \
N_r(t) + 1 form); tighter, but it holds only until the next registration. g is in MIPS, rounded \
down; times are in seconds, rounded up to the microsecond; bound = from arrival at the resource \
to completion. WFQ waits for one maximal task of another flow, I_r^max / C; SCFQ waits for the \
maximal task of every other flow, sum_(j != i) I_j / C, so its bound is the larger one once two \
or more other flows may hold maximal tasks (SPEC-NOTES N5). On the reserved basis every other \
flow slot (--max-users - 1 of them) counts as an I_r^max task, so SCFQ's bound is the larger \
from --max-users 3 on; on the current basis only the users registered now count, and in this grid they add up to less than one I_r^max \
(U1 is alone at R1), so SCFQ's current-basis bound is the smaller, except at GS_BE_EQUAL, where \
every free flow slot may hold a temporary BE user with a maximal task (and its weight lowers g \
down to what Eq. 1 allows). GS_BE_PRIORITY n.pr. adds \
the residual best-effort task R_r = I_r^max / C (Table 1). single = one CPU of the total \
capacity; multi = 30/20/10 CPUs of 26,000 MIPS: g comes from the total capacity C' (Sec. 5.2), \
every I / C term uses the slowest CPU C_min (Eq. 10), and, correcting Eq. 10 (kernel/src/bound.rs), \
the task's own run is charged at min(g, C_min) and M I_r^max / C' is added for CPUs left idle \
while a flow's queue is shorter than M. \"none\" = no bound (refused registration, or \
aggressive submission).";

/// `n` with thousands separators (`419,900,000`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Ticks as seconds without trailing zeros (`2.5`, `0`).
fn short_secs(t: u64) -> String {
    let s = bounds::secs(t);
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "none".to_owned(), |v| v.to_string())
}

fn opt_secs(v: Option<u64>) -> String {
    v.map_or_else(|| "none".to_owned(), bounds::secs)
}

fn cells(r: &Row) -> Vec<String> {
    vec![
        r.user.to_owned(),
        r.resource.to_owned(),
        r.kind.to_string(),
        r.discipline.to_string(),
        r.layout.name().to_owned(),
        r.outcome.clone(),
        opt(r.g_reserved),
        opt(r.g_current),
        opt_secs(r.bound_reserved),
        opt_secs(r.bound_current),
        opt_secs(r.end_to_end_reserved),
        opt_secs(r.end_to_end_current),
        opt_secs(r.deadline),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_left_and_right() {
        let t = table(
            &[("a", Align::Left), ("num", Align::Right)],
            &[
                vec!["xyz".into(), "1".into()],
                vec!["q".into(), "12345".into()],
            ],
        );
        assert_eq!(t, "a      num\n---  -----\nxyz      1\nq    12345\n");
    }

    #[test]
    fn wrap_breaks_between_words() {
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc\n");
    }

    #[test]
    fn numbers_for_prose() {
        assert_eq!(grouped(419_900_000), "419,900,000");
        assert_eq!(grouped(12), "12");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(short_secs(2_500_000), "2.5");
        assert_eq!(short_secs(0), "0");
        assert_eq!(short_secs(10_000_000), "10");
    }

    #[test]
    fn bounds_table_has_every_row_and_the_legend() {
        let rep = crate::bounds::compute(&crate::grid::seed004(), &Default::default()).unwrap();
        let t = bounds_table(&rep);
        assert!(t.contains("3768.333335"));
        assert!(t.contains("Legend."));
        assert_eq!(t.lines().filter(|l| l.starts_with("U")).count(), 48);
    }
}
