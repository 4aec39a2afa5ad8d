//! The page a person looks at: `index.html` beside a reproduction's files ([`page`]), and the
//! index of every paper's outcomes that `qosgate reproduce all --out DIR` writes ([`index`]).
//!
//! A page is self-contained: inline CSS and SVG, no script, nothing fetched from a network. It
//! opens from the disk (`file://`) and links only to the files written beside it: each figure's
//! CSV and SVG, `summary.json` and [`TIMING_FILE`], which it also shows in a frame (the run time
//! is the one thing that differs between two runs of a reproduction, so it stays out of the page
//! itself, which is byte for byte the same however the runs were made).
//!
//! It shows the paper, the parameter sets (literal or calibrated), the replications, the seeds,
//! the run's size and time, a table of every statement's outcome, and per part its figures
//! (drawn by [`super::svg`], with their tables folded beneath) and its statements: the paper's
//! words, what is measured against which margin, the points, the outcome, and the notes of the
//! printed report. Claims are reproduced, contradicted or inconclusive; checks pass or fail
//! ([`super::statement`]).

use std::fmt::Write as _;

use anyhow::Result;

use super::statement::{Kind, Outcome, Statement};
use super::table::grouped;
use super::{Figure, Report, Section};

/// The file the run time is written to, beside the page.
pub const TIMING_FILE: &str = "timing.txt";

/// The style of every page.
const CSS: &str = "\
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;\
color:#1f2328;background:#fff;margin:0 auto;max-width:1280px;padding:0 24px 48px}\
h1{font-size:26px;margin:24px 0 4px}h1 small{font-weight:normal;color:#59636e}\
h2{font-size:20px;margin:36px 0 10px;padding-bottom:4px;border-bottom:1px solid #d1d9e0}\
a{color:#0969da}code{font:12px/1.4 ui-monospace,'DejaVu Sans Mono',monospace}\
table{border-collapse:collapse;margin:8px 0;width:100%}\
th,td{border:1px solid #d1d9e0;padding:5px 8px;text-align:left;vertical-align:top}\
thead th{background:#f6f8fa}table.facts th{width:130px;background:#f6f8fa}\
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\
.badge{display:inline-block;border-radius:10px;padding:1px 9px;font-size:13px;font-weight:600;\
white-space:nowrap;vertical-align:middle}\
.reproduced,.passed{background:#dafbe1;color:#116329}\
.inconclusive{background:#fff8c5;color:#7d4e00}\
.contradicted,.failed{background:#ffebe9;color:#a40e26}\
.mode{background:#ddf4ff;color:#0550ae}\
figure{margin:18px 0;overflow-x:auto}figure svg{max-width:100%;height:auto}\
figcaption{color:#59636e;font-size:14px}\
details{margin:6px 0}summary{cursor:pointer;color:#0969da}\
p.note{color:#59636e}td p{margin:0 0 6px}td p:last-child{margin:0}\
iframe{border:1px solid #d1d9e0;width:100%;height:64px;background:#f6f8fa}\
nav ol{columns:2;margin:8px 0}ol.variants{columns:1}";

/// The page of one reproduction.
///
/// Errors: a figure that cannot be drawn ([`super::svg::svg`]).
pub fn page(r: &Report) -> Result<String> {
    let mut out = String::new();
    head(&mut out, &format!("{}: {}", r.paper, r.title));
    let _ = write!(
        out,
        "<header><h1>{} <small>{}</small></h1>\n<p class=\"cite\">{}</p>\n<p>qosgate reproduce \
         {}: {}</p></header>\n",
        esc(r.paper),
        esc(r.title),
        esc(&r.citation.to_string()),
        esc(r.paper),
        tallies(r)
    );
    out.push_str("<nav><ol>\n<li><a href=\"#run\">The run</a></li>\n");
    out.push_str("<li><a href=\"#outcomes\">Outcomes</a></li>\n");
    for (i, s) in r.sections.iter().enumerate() {
        let (id, h) = (anchor(i), esc(&s.heading));
        let _ = writeln!(out, "<li><a href=\"#{id}\">{h}</a></li>");
    }
    out.push_str("</ol></nav>\n");
    run(&mut out, r);
    outcomes(&mut out, r);
    for (i, s) in r.sections.iter().enumerate() {
        section(&mut out, i, s)?;
    }
    out.push_str("</body>\n</html>\n");
    Ok(out)
}

/// The index of several reproductions: `(directory, report)`, each page at
/// `<directory>/index.html`.
pub fn index(reports: &[(&str, &Report)]) -> String {
    let mut out = String::new();
    head(&mut out, "every paper");
    let _ = write!(
        out,
        "<header><h1>qosgate reproduce all</h1>\n<p>{} paper(s).</p></header>\n",
        reports.len()
    );
    out.push_str(
        "<h2>Papers</h2>\n<table><thead><tr><th>Paper</th><th>What is reproduced</th>\
         <th>Outcomes</th></tr></thead><tbody>\n",
    );
    for (dir, r) in reports {
        let _ = writeln!(
            out,
            "<tr><td><a href=\"{}/index.html\">{}</a></td><td>{}: {}</td><td>{}</td></tr>",
            esc(dir),
            esc(r.paper),
            esc(&r.citation.to_string()),
            esc(r.title),
            tallies(r)
        );
    }
    out.push_str("</tbody></table>\n<h2>Every statement</h2>\n");
    out.push_str(OUTCOME_NOTE);
    out.push_str(
        "<table><thead><tr><th>Paper</th><th>Part</th><th>Statement</th><th>Outcome</th>\
         </tr></thead><tbody>\n",
    );
    for (dir, r) in reports {
        for (i, s) in r.sections.iter().enumerate() {
            for st in &s.statements {
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td><a href=\"{}/index.html#{}\">{}</a></td><td>{}</td>\
                     <td>{}</td></tr>",
                    esc(r.paper),
                    esc(dir),
                    anchor(i),
                    esc(&s.heading),
                    statement_cell(st),
                    badge(st.outcome)
                );
            }
        }
    }
    out.push_str("</tbody></table>\n</body>\n</html>\n");
    out
}

/// How outcomes are decided, as the pages say it.
const OUTCOME_NOTE: &str = "<p class=\"note\">A claim is a result of the paper that a \
simulation could contradict; it measures an effect at one or more points, each with its 95 % \
interval, against a margin (the paper's effect size, or a stated practical one). It is \
<span class=\"badge reproduced\">reproduced</span> when every interval lies on the claim's side \
of the margin, <span class=\"badge contradicted\">contradicted</span> when one lies wholly on the \
other side, and <span class=\"badge inconclusive\">inconclusive</span> otherwise. A check is \
true by construction of the model or a calibration: it <span class=\"badge passed\">passed</span> \
or <span class=\"badge failed\">failed</span>, and is never counted as a result.</p>\n";

/// The document's start, up to the body.
fn head(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta \
         name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} \
         (qosgate reproduce)</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        esc(title)
    );
}

/// The parameters, replications, seeds, size, time and files of the run.
fn run(out: &mut String, r: &Report) {
    out.push_str("<section id=\"run\"><h2>The run</h2>\n<table class=\"facts\"><tbody>\n");
    out.push_str("<tr><th>Parameters</th><td>");
    for p in &r.parameters {
        let _ = write!(
            out,
            "<p><span class=\"badge mode\">{}</span> {}</p>",
            p.mode.name(),
            esc(&p.description)
        );
    }
    out.push_str("</td></tr>\n");
    let _ = writeln!(
        out,
        "<tr><th>Replications</th><td>{}. Each value is the mean over the replications ± the \
         half-width of its 95 % confidence interval (none for one replication).</td></tr>",
        esc(&r.replications.text())
    );
    let seeds: Vec<String> = r
        .seeds
        .iter()
        .map(|[a, b]| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect();
    let _ = writeln!(
        out,
        "<tr><th>Seeds</th><td>{} (each run's seed, from its scenario's seed and its \
         replication)</td></tr>",
        seeds.join(", ")
    );
    let _ = writeln!(
        out,
        "<tr><th>Size</th><td>{} variants, {} runs, {:.1} M simulation events</td></tr>",
        grouped(r.variants as u64),
        grouped(r.runs as u64),
        r.events as f64 / 1e6
    );
    let _ = writeln!(
        out,
        "<tr><th>Run time</th><td><iframe src=\"{TIMING_FILE}\" title=\"run time\"></iframe>\
         <a href=\"{TIMING_FILE}\">{TIMING_FILE}</a>: the only file that differs between two \
         runs of this reproduction (whole or in shards).</td></tr>"
    );
    out.push_str(
        "<tr><th>Files</th><td><a href=\"summary.json\">summary.json</a> (every figure's values \
         and every statement); each figure's CSV and SVG under it below.</td></tr>\n",
    );
    out.push_str("</tbody></table>\n");
    let _ = write!(
        out,
        "<details><summary>The {} variants, by their named parameters</summary>\n\
         <ol class=\"variants\">\n",
        r.variant_keys.len()
    );
    for k in &r.variant_keys {
        let _ = writeln!(out, "<li><code>{}</code></li>", esc(k));
    }
    out.push_str("</ol></details>\n</section>\n");
}

/// Every statement's outcome, by part.
fn outcomes(out: &mut String, r: &Report) {
    out.push_str("<section id=\"outcomes\"><h2>Outcomes</h2>\n");
    out.push_str(OUTCOME_NOTE);
    out.push_str(
        "<table><thead><tr><th>Part</th><th>Statement</th><th>Outcome</th></tr></thead>\
         <tbody>\n",
    );
    for (i, s) in r.sections.iter().enumerate() {
        for st in &s.statements {
            let _ = writeln!(
                out,
                "<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td></tr>",
                anchor(i),
                esc(&s.heading),
                statement_cell(st),
                badge(st.outcome)
            );
        }
    }
    out.push_str("</tbody></table>\n</section>\n");
}

/// A statement's id, kind and mode, and the paper's words.
fn statement_cell(s: &Statement) -> String {
    let kind = match s.kind {
        Kind::Claim => "claim",
        Kind::Check => "check",
    };
    let mode = s.mode.map_or(String::new(), |m| {
        format!(" <span class=\"badge mode\">{}</span>", m.name())
    });
    format!(
        "<code>{}</code> ({kind}){mode}<br>{}",
        esc(&s.id),
        esc(&s.text)
    )
}

/// One part: its figures, then its statements with margins, points and outcomes.
fn section(out: &mut String, i: usize, s: &Section) -> Result<()> {
    let (id, h) = (anchor(i), esc(&s.heading));
    let _ = writeln!(out, "<section id=\"{id}\"><h2>{h}</h2>");
    for f in &s.figures {
        figure(out, f)?;
    }
    for g in &s.schedules {
        let _ = write!(
            out,
            "<figure id=\"{id}\">\n{svg}\n<figcaption>{} A Gantt chart of one replication, \
             an illustration: nothing is judged on it. File: <a href=\"{id}.svg\">{id}.svg</a>.\
             </figcaption>\n</figure>\n",
            esc(&g.title),
            id = esc(&g.id),
            svg = g.svg.trim_end()
        );
    }
    out.push_str(
        "<table><thead><tr><th>Statement</th><th>Measured against</th><th>Numbers</th>\
         <th>Outcome</th></tr></thead><tbody>\n",
    );
    for st in &s.statements {
        let measured = match (&st.margin, &st.construction) {
            (Some(m), _) => format!("{}; margin: {}", esc(&st.effect), esc(&m.criterion())),
            (None, Some(c)) => format!("true by construction: {}", esc(c)),
            (None, None) => esc(&st.effect),
        };
        let mut numbers = String::new();
        if !st.points.is_empty() {
            let _ = write!(numbers, "<p>{}</p>", esc(&st.points_text(3)));
        }
        if let Some(e) = &st.evidence {
            let _ = write!(numbers, "<p>{}</p>", esc(e));
        }
        let notes = [
            (
                "Root cause",
                st.cause.map(|c| format!("{}: {}", c.id, c.text)),
            ),
            ("Why", st.shown_why().map(str::to_owned)),
            ("Other reading", st.other_reading.clone()),
            ("Note", st.note.clone()),
        ];
        for (label, note) in notes {
            if let Some(note) = note {
                let _ = write!(numbers, "<p><b>{label}:</b> {}</p>", esc(&note));
            }
        }
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{measured}</td><td>{numbers}</td><td>{}</td></tr>",
            statement_cell(st),
            badge(st.outcome)
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
    Ok(())
}

/// A figure: its drawing, its caption with links to its files, and its table folded.
fn figure(out: &mut String, f: &Figure) -> Result<()> {
    let svg = super::svg::svg(f)?;
    let _ = write!(
        out,
        "<figure id=\"{id}\">\n{svg}\n<figcaption>{} ({}).{marks} Files: <a href=\"{id}.csv\">\
         {id}.csv</a>, <a href=\"{id}.svg\">{id}.svg</a>.</figcaption>\n",
        esc(&f.title),
        esc(&f.y_label),
        marks = f
            .marks
            .iter()
            .map(|m| format!(" <strong>{}.</strong>", esc(m)))
            .collect::<String>(),
        id = esc(f.id),
        svg = svg.trim_end()
    );
    let (headers, rows) = f.cells();
    out.push_str("<details><summary>The numbers</summary>\n<table><thead><tr>");
    for h in &headers {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &rows {
        out.push_str("<tr>");
        for (c, cell) in row.iter().enumerate() {
            if c == 0 {
                let _ = write!(out, "<th>{}</th>", esc(cell));
            } else {
                let _ = write!(out, "<td class=\"num\">{}</td>", esc(cell));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></details>\n</figure>\n");
    Ok(())
}

/// The report's tallies, one per mode, in words.
fn tallies(r: &Report) -> String {
    r.tallies()
        .iter()
        .map(|(mode, t)| {
            let mode = mode.map_or(String::new(), |m| format!("{}: ", m.name()));
            esc(&format!("{mode}{}.", t.text()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An outcome as a coloured badge.
fn badge(o: Outcome) -> String {
    format!("<span class=\"badge {0}\">{0}</span>", o.name())
}

/// The id of section `i` on its page.
fn anchor(i: usize) -> String {
    format!("section-{}", i + 1)
}

/// `s` with HTML's special characters escaped (for text and attribute values).
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::statement::tests::iv;
    use crate::report::statement::{Margin, Source, check, claim};
    use crate::report::stats::Estimate;
    use crate::report::{Citation, Mode, Parameters, Ticks};

    fn report() -> Report {
        let fig = Figure::lines("fig1", "Fig. 1: delay")
            .x("load, tasks/s", [1.0, 2.0], Ticks::Plain)
            .y("delay, s")
            .series(
                "A & B",
                [
                    Some(Estimate {
                        mean: 1.5,
                        half_width: Some(0.25),
                        n: 3,
                    }),
                    None,
                ],
            )
            .decimals(2);
        let margin = || Margin::at_least(0.5, "s", Source::Practical("half a second".into()));
        let grows = claim(
            "p2020.fig1.grows",
            "It <grows>.",
            "\"delay\" at 2 minus at 1",
            margin(),
        )
        .point("2 - 1", iv(0.6, 0.9))
        .why("never shown: it is reproduced")
        .done();
        let shrinks = claim(
            "p2020.fig1.shrinks",
            "It shrinks.",
            "delay at 1 minus at 2",
            margin(),
        )
        .point("1 - 2", iv(-0.9, -0.6))
        .why("the load rises")
        .other_reading("reproduced when read backwards".into())
        .done();
        let open = claim("p2020.fig1.open", "It moves.", "the change", margin())
            .point("x", iv(0.0, 1.0))
            .done();
        let built = check(
            "p2020.table1.cost",
            "It costs 5.",
            "the calibration solves for it",
        )
        .holds(true, "5 = 5".into())
        .done();
        Report {
            paper: "p2020",
            citation: Citation {
                authors: "A. Author",
                title: "A paper",
                venue: "a journal",
                year: 2020,
            },
            title: "a paper",
            parameters: vec![Parameters {
                mode: Mode::Literal,
                description: "as printed".into(),
            }],
            replications: crate::report::Replicated::Fixed {
                random: 3,
                fixed: 1,
            },
            runs: 7,
            variants: 3,
            events: 2_500_000,
            seeds: vec![[1, 3], [7, 7]],
            variant_keys: vec!["{\"a\":1}".into()],
            sections: vec![
                Section {
                    heading: "Claim 1".into(),
                    figures: vec![fig],
                    statements: vec![grows, built],
                    replications: [3, 3],
                    schedules: vec![crate::report::Schedule {
                        id: "gantt-a".into(),
                        title: "The <cluster>.".into(),
                        svg: "<svg width=\"10\" height=\"10\"><rect/></svg>\n".into(),
                    }],
                },
                Section {
                    heading: "Claim 2".into(),
                    figures: vec![],
                    statements: vec![shrinks.clone(), open],
                    replications: [3, 3],
                    schedules: vec![],
                },
                Section {
                    heading: "Claim 3".into(),
                    figures: vec![],
                    statements: vec![shrinks],
                    replications: [3, 3],
                    schedules: vec![],
                },
            ],
        }
    }

    #[test]
    fn a_page_holds_every_claim_figure_and_fact_and_needs_nothing_else() {
        let page = page(&report()).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
        assert!(!page.contains("<script"), "no script");
        // Every link and frame is a file beside the page.
        for attr in ["src=\"", "href=\""] {
            for (i, _) in page.match_indices(attr) {
                let value = page[i + attr.len()..].split('"').next().unwrap();
                assert!(!value.contains(':') && !value.starts_with('/'), "{value}");
            }
        }
        for text in [
            "<title>p2020: a paper (qosgate reproduce)</title>",
            "1 reproduced, 2 contradicted, 1 inconclusive of 4 claims; 1 of 1 checks pass.",
            "<span class=\"badge mode\">literal</span> as printed",
            "3 replication(s) of each variant with random distributions, 1 of each deterministic one",
            "<td>1–3, 7 (each run",
            "3 variants, 7 runs, 2.5 M simulation events",
            "<iframe src=\"timing.txt\"",
            "<a href=\"summary.json\">",
            "<a href=\"fig1.csv\">fig1.csv</a>, <a href=\"fig1.svg\">fig1.svg</a>",
            "<figure id=\"fig1\">\n<svg",
            "<figure id=\"gantt-a\">\n<svg width=\"10\" height=\"10\"><rect/></svg>\n\
             <figcaption>The &lt;cluster&gt;. A Gantt chart of one replication, an illustration: \
             nothing is judged on it. File: <a href=\"gantt-a.svg\">gantt-a.svg</a>.",
            "<code>{&quot;a&quot;:1}</code>",
            "<code>p2020.fig1.grows</code> (claim)<br>It &lt;grows&gt;.",
            "&quot;delay&quot; at 2 minus at 1; margin: at least 0.5 s (practical: half a second)",
            "2 - 1: 0.750 [0.600, 0.900] (reproduced)",
            "true by construction: the calibration solves for it",
            "<th>A &amp; B</th>",
            "<tr><th>1</th><td class=\"num\">1.50 ± 0.25</td></tr>",
            "<tr><th>2</th><td class=\"num\">-</td></tr>",
            "<p><b>Why:</b> the load rises</p>",
            "<p><b>Other reading:</b> reproduced when read backwards</p>",
            "<span class=\"badge inconclusive\">inconclusive</span>",
            "<span class=\"badge passed\">passed</span>",
        ] {
            assert!(page.contains(text), "{text} missing");
        }
        // `Why:` only where the statement is not reproduced.
        assert!(!page.contains("never shown"));
        assert_eq!(page.matches("<b>Why:</b>").count(), 2);
    }

    /// A schedule is named in the printed report and described in summary.json; its drawing is
    /// on the page and in its file only.
    #[test]
    fn a_schedule_is_named_in_the_text_and_drawn_on_the_page_only() {
        let r = report();
        assert!(r.text().contains(
            "Schedule: The <cluster>. (a Gantt chart: gantt-a.svg with --out, and on the page)."
        ));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(
            json["sections"][0]["schedules"],
            serde_json::json!([{"id": "gantt-a", "title": "The <cluster>."}])
        );
    }

    #[test]
    fn the_index_lists_every_statement_of_every_paper_with_links() {
        let r = report();
        let mut other = report();
        other.paper = "q2021";
        let index = index(&[("p2020", &r), ("q2021", &other)]);
        assert!(index.contains("2 paper(s)."), "{index}");
        assert!(index.contains("<a href=\"q2021/index.html\">q2021</a>"));
        assert!(index.contains("<a href=\"p2020/index.html#section-3\">Claim 3</a>"));
        assert_eq!(index.matches("<br>It shrinks.</td>").count(), 4);
        assert!(!index.contains("<script"));
    }
}
