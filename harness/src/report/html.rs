//! The page a person looks at: `index.html` beside a reproduction's files ([`page`]), and the
//! index of every paper's verdicts that `qosgate reproduce all --out DIR` writes ([`index`]).
//!
//! A page is self-contained: inline CSS and SVG, no script, nothing fetched from a network. It
//! opens from the disk (`file://`) and links only to the files written beside it: each figure's
//! CSV and SVG, `summary.json` and [`TIMING_FILE`], which it also shows in a frame (the run time
//! is the one thing that differs between two runs of a reproduction, so it stays out of the page
//! itself, which is byte for byte the same however the runs were made).
//!
//! It shows the paper, the parameter sets (literal or calibrated), the replications, the seeds,
//! the run's size and time, a table of every statement's verdict, and per claim its figures
//! (drawn by [`super::svg`], with their tables folded beneath) and its statements: the paper's
//! words, the criterion, the numbers, the verdict, and the `Why:` and `Other reading:` lines
//! of the printed report. Each statement holds or does not hold; a claim, made of statements,
//! holds when all hold, is partial when some do and does not hold when none does
//! ([`Standing`]).

use std::fmt::Write as _;

use anyhow::Result;

use super::table::grouped;
use super::{Figure, Report, Section, Standing, Verdict};

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
.holds{background:#dafbe1;color:#116329}.partial{background:#fff8c5;color:#7d4e00}\
.fails{background:#ffebe9;color:#a40e26}\
.mode{background:#ddf4ff;color:#0550ae}\
figure{margin:18px 0;overflow-x:auto}figure svg{max-width:100%;height:auto}\
figcaption{color:#59636e;font-size:14px}\
details{margin:6px 0}summary{cursor:pointer;color:#0969da}\
p.note{color:#59636e}td p{margin:0 0 6px}td p:last-child{margin:0}\
iframe{border:1px solid #d1d9e0;width:100%;height:64px;background:#f6f8fa}\
nav ol{columns:2;margin:8px 0}ol.variants{columns:1}";

/// The page of one reproduction.
///
/// Errors: a figure that cannot be drawn ([`Figure::svg`]).
pub fn page(r: &Report) -> Result<String> {
    let mut out = String::new();
    let (held, total) = r.tally();
    head(&mut out, &format!("{}: {}", r.paper, r.title));
    let _ = write!(
        out,
        "<header><h1>{} <small>{}</small></h1>\n<p>qosgate reproduce {}: {held} of {total} \
         statements hold. {}</p></header>\n",
        esc(r.paper),
        esc(r.title),
        esc(r.paper),
        claims_tally(&r.sections)
    );
    out.push_str("<nav><ol>\n<li><a href=\"#run\">The run</a></li>\n");
    out.push_str("<li><a href=\"#verdicts\">Verdicts</a></li>\n");
    for (i, s) in r.sections.iter().enumerate() {
        let (id, h, b) = (anchor(i), esc(&s.heading), standing(s));
        let _ = writeln!(out, "<li><a href=\"#{id}\">{h}</a> {b}</li>");
    }
    out.push_str("</ol></nav>\n");
    run(&mut out, r);
    verdicts(&mut out, r);
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
    let (held, total) = reports.iter().fold((0, 0), |(h, t), (_, r)| {
        let (rh, rt) = r.tally();
        (h + rh, t + rt)
    });
    let _ = write!(
        out,
        "<header><h1>qosgate reproduce all</h1>\n<p>{} paper(s): {held} of {total} statements \
         hold.</p></header>\n",
        reports.len()
    );
    out.push_str(
        "<h2>Papers</h2>\n<table><thead><tr><th>Paper</th><th>What is reproduced</th>\
         <th>Statements that hold</th><th>Claims</th></tr></thead><tbody>\n",
    );
    for (dir, r) in reports {
        let (h, t) = r.tally();
        let _ = writeln!(
            out,
            "<tr><td><a href=\"{}/index.html\">{}</a></td><td>{}</td><td class=\"num\">{h} of \
             {t}</td><td>{}</td></tr>",
            esc(dir),
            esc(r.paper),
            esc(r.title),
            claims_tally(&r.sections)
        );
    }
    out.push_str("</tbody></table>\n<h2>Every verdict</h2>\n");
    out.push_str(STANDING_NOTE);
    out.push_str(
        "<table><thead><tr><th>Paper</th><th>Claim</th><th>Statement (the paper)</th>\
         <th>Verdict</th></tr></thead><tbody>\n",
    );
    for (dir, r) in reports {
        for (i, s) in r.sections.iter().enumerate() {
            for v in &s.verdicts {
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td><a href=\"{}/index.html#{}\">{}</a></td><td>{}</td>\
                     <td>{}</td></tr>",
                    esc(r.paper),
                    esc(dir),
                    anchor(i),
                    esc(&s.heading),
                    esc(&v.claim),
                    verdict_badge(v)
                );
            }
        }
    }
    out.push_str("</tbody></table>\n</body>\n</html>\n");
    out
}

/// How a claim's standing is decided, as the pages say it.
const STANDING_NOTE: &str = "<p class=\"note\">Each claim of a paper is split into \
statements, and each statement <span class=\"badge holds\">holds</span> or <span class=\"badge \
fails\">does not hold</span> as its criterion, applied to the numbers, decides. A claim holds \
when all its statements hold, is <span class=\"badge partial\">partial</span> when some do, and \
does not hold when none does.</p>\n";

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
        "<tr><th>Replications</th><td>{} of each variant with random distributions, {} of each \
         deterministic one (all distributions fixed). Each value is the mean over the \
         replications ± the half-width of its 95 % confidence interval (none for one \
         replication).</td></tr>",
        r.random_replications, r.fixed_replications
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
         and every verdict); each figure's CSV and SVG under it below.</td></tr>\n",
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

/// Every statement's verdict, by claim.
fn verdicts(out: &mut String, r: &Report) {
    out.push_str("<section id=\"verdicts\"><h2>Verdicts</h2>\n");
    out.push_str(STANDING_NOTE);
    out.push_str(
        "<table><thead><tr><th>Claim</th><th>Statement (the paper)</th><th>Verdict</th></tr>\
         </thead><tbody>\n",
    );
    for (i, s) in r.sections.iter().enumerate() {
        for v in &s.verdicts {
            let _ = writeln!(
                out,
                "<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td></tr>",
                anchor(i),
                esc(&s.heading),
                esc(&v.claim),
                verdict_badge(v)
            );
        }
    }
    out.push_str("</tbody></table>\n</section>\n");
}

/// One claim: its figures, then its statements with criteria, numbers and verdicts.
fn section(out: &mut String, i: usize, s: &Section) -> Result<()> {
    let (id, h, b) = (anchor(i), esc(&s.heading), standing(s));
    let _ = writeln!(out, "<section id=\"{id}\"><h2>{h} {b}</h2>");
    for f in &s.figures {
        figure(out, f)?;
    }
    out.push_str(
        "<table><thead><tr><th>Statement (the paper)</th><th>Criterion</th><th>Numbers</th>\
         <th>Verdict</th></tr></thead><tbody>\n",
    );
    for v in &s.verdicts {
        let mut numbers = format!("<p>{}</p>", esc(&v.evidence));
        if let Some(why) = v.shown_why() {
            let _ = write!(numbers, "<p><b>Why:</b> {}</p>", esc(why));
        }
        if let Some(note) = &v.other_reading {
            let _ = write!(numbers, "<p><b>Other reading:</b> {}</p>", esc(note));
        }
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{numbers}</td><td>{}</td></tr>",
            esc(&v.claim),
            esc(&v.criterion),
            verdict_badge(v)
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
    Ok(())
}

/// A figure: its drawing, its caption with links to its files, and its table folded.
fn figure(out: &mut String, f: &Figure) -> Result<()> {
    let svg = f.svg()?;
    let _ = write!(
        out,
        "<figure id=\"{id}\">\n{svg}\n<figcaption>{} ({}). Files: <a href=\"{id}.csv\">{id}.csv\
         </a>, <a href=\"{id}.svg\">{id}.svg</a>.</figcaption>\n",
        esc(&f.title),
        esc(&f.y_label),
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

/// "Claims: 2 hold, 3 partial, 1 does not hold", with badges.
fn claims_tally(sections: &[Section]) -> String {
    let standings: Vec<Standing> = sections.iter().map(|s| Standing::of(&s.verdicts)).collect();
    let parts: Vec<String> = [Standing::Holds, Standing::Partial, Standing::DoesNotHold]
        .iter()
        .filter_map(|&k| {
            let n = standings.iter().filter(|&&s| s == k).count();
            (n > 0).then(|| format!("{n} {}", badge(k)))
        })
        .collect();
    format!("Claims: {}.", parts.join(", "))
}

/// A claim's standing as a badge.
fn standing(s: &Section) -> String {
    badge(Standing::of(&s.verdicts))
}

/// A statement's verdict as a badge.
fn verdict_badge(v: &Verdict) -> String {
    badge(if v.holds {
        Standing::Holds
    } else {
        Standing::DoesNotHold
    })
}

/// A standing as a coloured badge.
fn badge(s: Standing) -> String {
    let class = match s {
        Standing::Holds => "holds",
        Standing::Partial => "partial",
        Standing::DoesNotHold => "fails",
    };
    format!("<span class=\"badge {class}\">{}</span>", s.name())
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
    use crate::report::stats::Estimate;
    use crate::report::{Mode, Parameters, verdict};

    fn report() -> Report {
        let fig = Figure {
            id: "fig1",
            title: "Fig. 1: delay".into(),
            x_label: "load, tasks/s".into(),
            y_label: "delay, s".into(),
            groups: vec!["1".into(), "2".into()],
            x_values: Some(vec![1.0, 2.0]),
            series: vec!["A & B".into()],
            values: vec![vec![
                Some(Estimate {
                    mean: 1.5,
                    half_width: Some(0.25),
                    n: 3,
                }),
                None,
            ]],
            paper: None,
            decimals: 2,
        };
        let holds = verdict("It <grows>.", "Each \"mean\" above.", &[], "1 < 2.".into());
        let fails = verdict(
            "It shrinks.",
            "Each below.",
            &["at 2".into()],
            "2 > 1.".into(),
        )
        .because("the load rises")
        .other_reading("holds when read backwards".into());
        let explained_but_held = holds.clone().because("never shown: it holds");
        Report {
            paper: "p2020",
            title: "a paper",
            parameters: vec![Parameters {
                mode: Mode::Literal,
                description: "as printed".into(),
            }],
            random_replications: 3,
            fixed_replications: 1,
            runs: 7,
            variants: 3,
            events: 2_500_000,
            seeds: vec![[1, 3], [7, 7]],
            variant_keys: vec!["V { a: 1 }".into()],
            sections: vec![
                Section {
                    heading: "Claim 1".into(),
                    figures: vec![fig],
                    verdicts: vec![holds, explained_but_held],
                },
                Section {
                    heading: "Claim 2".into(),
                    figures: vec![],
                    verdicts: vec![fails.clone(), verdict("x", "y", &[], "z".into())],
                },
                Section {
                    heading: "Claim 3".into(),
                    figures: vec![],
                    verdicts: vec![fails],
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
            "3 of 5 statements hold",
            // Claims: 1 holds, 1 partial, 1 does not hold.
            "Claims: 1 <span class=\"badge holds\">holds</span>, 1 <span class=\"badge \
             partial\">partial</span>, 1 <span class=\"badge fails\">does not hold</span>.",
            "<span class=\"badge mode\">literal</span> as printed",
            "3 of each variant with random distributions, 1 of each deterministic one",
            "<td>1–3, 7 (each run",
            "3 variants, 7 runs, 2.5 M simulation events",
            "<iframe src=\"timing.txt\"",
            "<a href=\"summary.json\">",
            "<a href=\"fig1.csv\">fig1.csv</a>, <a href=\"fig1.svg\">fig1.svg</a>",
            "<figure id=\"fig1\">\n<svg",
            "<code>V { a: 1 }</code>",
            "It &lt;grows&gt;.",
            "Each &quot;mean&quot; above.",
            "<th>A &amp; B</th>",
            "<tr><th>1</th><td class=\"num\">1.50 ± 0.25</td></tr>",
            "<tr><th>2</th><td class=\"num\">-</td></tr>",
            "<p><b>Why:</b> the load rises</p>",
            "<p><b>Other reading:</b> holds when read backwards</p>",
            "<section id=\"section-2\"><h2>Claim 2 <span class=\"badge partial\">",
        ] {
            assert!(page.contains(text), "{text} missing");
        }
        // `Why:` only where the statement does not hold.
        assert!(!page.contains("never shown"));
        assert_eq!(page.matches("<b>Why:</b>").count(), 2);
    }

    #[test]
    fn the_index_lists_every_verdict_of_every_paper_with_links() {
        let r = report();
        let mut other = report();
        other.paper = "q2021";
        let index = index(&[("p2020", &r), ("q2021", &other)]);
        assert!(
            index.contains("2 paper(s): 6 of 10 statements hold."),
            "{index}"
        );
        assert!(index.contains("<a href=\"q2021/index.html\">q2021</a>"));
        assert!(index.contains("<a href=\"p2020/index.html#section-3\">Claim 3</a>"));
        assert_eq!(index.matches("<td>It shrinks.</td>").count(), 4);
        assert!(!index.contains("<script"));
    }
}
