//! One table, two forms, from one list of columns: the text table people read and the CSV file
//! programs read (fields quoted by the `csv` crate). A table of `T`s is a slice of
//! [`Column<T>`]s, each a heading (with its unit, as people read it), a key (snake_case, with
//! its unit, the CSV header) and how a row gives its value.
//!
//! The same columns give the JSON form ([`Rows`]): an array of objects under the same keys, an
//! estimate as `{mean, half_width, n}`, so the CSV and the JSON of one table cannot name one
//! quantity two ways (docs/outputs.md).
//!
//! One rule for what is missing, everywhere: `-` in the text, an empty field in CSV, `null` in
//! JSON. An estimate is its mean ± its 95 % half-width in the text and two fields in CSV,
//! `<key>` and `<key>_hw`; the half-width is missing (not 0) where there is none (one
//! replication).

use std::io::Write;

use anyhow::{Context, Result};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::stats::Estimate;
use super::table::{Align, table};

/// How a column reads its value from a row.
pub enum Read<T> {
    /// Text (a name), left-aligned.
    Text(fn(&T) -> String),
    /// A count.
    Count(fn(&T) -> u64),
    /// A number shown with `decimals` decimals in the text (CSV keeps every digit); `None` where
    /// it is undefined.
    Number(fn(&T) -> Option<f64>, usize),
    /// An estimate shown with `decimals` decimals in the text; `None` where nothing was
    /// measured.
    Estimate(fn(&T) -> Option<Estimate>, usize),
}

/// One column of a table of `T`s.
pub struct Column<T> {
    /// The text table's heading (`missed %`).
    pub heading: &'static str,
    /// The CSV header (`missed_pct`): snake_case, unit included.
    pub key: &'static str,
    /// Its value in a row.
    pub read: Read<T>,
}

impl<T> Column<T> {
    /// A text column.
    pub const fn text(heading: &'static str, key: &'static str, read: fn(&T) -> String) -> Self {
        Column {
            heading,
            key,
            read: Read::Text(read),
        }
    }

    /// A count column.
    pub const fn count(heading: &'static str, key: &'static str, read: fn(&T) -> u64) -> Self {
        Column {
            heading,
            key,
            read: Read::Count(read),
        }
    }

    /// A number column, `decimals` decimals in the text.
    pub const fn number(
        heading: &'static str,
        key: &'static str,
        read: fn(&T) -> Option<f64>,
        decimals: usize,
    ) -> Self {
        Column {
            heading,
            key,
            read: Read::Number(read, decimals),
        }
    }

    /// An estimate column, `decimals` decimals in the text.
    pub const fn estimate(
        heading: &'static str,
        key: &'static str,
        read: fn(&T) -> Option<Estimate>,
        decimals: usize,
    ) -> Self {
        Column {
            heading,
            key,
            read: Read::Estimate(read, decimals),
        }
    }

    fn align(&self) -> Align {
        match self.read {
            Read::Text(_) => Align::Left,
            _ => Align::Right,
        }
    }

    /// The text cell of `row`.
    fn shown(&self, row: &T) -> String {
        match &self.read {
            Read::Text(f) => f(row),
            Read::Count(f) => f(row).to_string(),
            Read::Number(f, d) => f(row).map_or_else(|| "-".to_owned(), |x| format!("{x:.d$}")),
            Read::Estimate(f, d) => shown(&f(row), *d),
        }
    }

    /// Writes the CSV fields of `row` to `w`: one, or two for an estimate.
    fn write_fields<W: Write>(&self, row: &T, w: &mut csv::Writer<W>) -> csv::Result<()> {
        let mut opt = |x: Option<f64>| match x {
            Some(x) => w.write_field(x.to_string()),
            None => w.write_field([]),
        };
        match &self.read {
            Read::Text(f) => w.write_field(f(row)),
            Read::Count(f) => w.write_field(itoa::Buffer::new().format(f(row))),
            Read::Number(f, _) => opt(f(row)),
            Read::Estimate(f, _) => {
                let e = f(row);
                opt(e.map(|e| e.mean))?;
                opt(e.and_then(|e| e.half_width))
            }
        }
    }

    /// Adds the JSON field of `row` to `map`: the key and its value (`null` where missing).
    fn serialize_field<M: SerializeMap>(&self, row: &T, map: &mut M) -> Result<(), M::Error> {
        match &self.read {
            Read::Text(f) => map.serialize_entry(self.key, &f(row)),
            Read::Count(f) => map.serialize_entry(self.key, &f(row)),
            Read::Number(f, _) => map.serialize_entry(self.key, &f(row)),
            Read::Estimate(f, _) => map.serialize_entry(self.key, &f(row)),
        }
    }

    /// The CSV header fields: the key, and `<key>_hw` after an estimate's.
    fn header(&self, out: &mut Vec<String>) {
        out.push(self.key.to_owned());
        if let Read::Estimate(..) = self.read {
            out.push(format!("{}_hw", self.key));
        }
    }
}

/// An estimate as the text tables show it: mean ± half-width with `decimals` decimals, `-` where
/// nothing was measured.
pub fn shown(e: &Option<Estimate>, decimals: usize) -> String {
    e.map_or_else(|| "-".to_owned(), |e| e.show(decimals))
}

/// The two-column text table of `(name, estimate)` rows under `headings` (the names', the
/// values'), values with `decimals` decimals: a summary's metrics, or a quantity per resource.
pub fn pairs<N: AsRef<str>>(
    headings: [&str; 2],
    rows: &[(N, Option<Estimate>)],
    decimals: usize,
) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(n, e)| vec![n.as_ref().to_owned(), shown(e, decimals)])
        .collect();
    table(
        &[(headings[0], Align::Left), (headings[1], Align::Right)],
        &cells,
    )
}

/// The text table of `rows`: headings, a rule, a line per row; text left-aligned, numbers right.
pub fn text<T>(columns: &[Column<T>], rows: &[T]) -> String {
    let headers: Vec<(&str, Align)> = columns.iter().map(|c| (c.heading, c.align())).collect();
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| columns.iter().map(|c| c.shown(r)).collect())
        .collect();
    table(&headers, &cells)
}

/// Writes `rows` as CSV to `out`: the header line, then a line per row.
///
/// A table of counts only (a schedule file: 113,613 rows for a trace like LLNL Thunder) skips
/// the `csv` crate's per-field quoting checks, which a number never needs, and writes each row's
/// digits straight into a buffer: the same bytes (docs/performance.md: `--parse-only` on
/// Thunder about 0.89x the time).
///
/// Errors: a failed write.
pub fn write_csv<'r, T: 'r>(
    columns: &[Column<T>],
    rows: impl IntoIterator<Item = &'r T>,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let mut header = Vec::new();
    columns.iter().for_each(|c| c.header(&mut header));
    w.write_record(&header).context("writing CSV")?;
    let counts: Option<Vec<_>> = columns
        .iter()
        .map(|c| match c.read {
            Read::Count(f) => Some(f),
            _ => None,
        })
        .collect();
    if let Some(counts) = counts {
        w.flush().context("writing CSV")?;
        let out = w.into_inner().map_err(|e| e.into_error())?;
        return write_counts(&counts, rows, out);
    }
    for row in rows {
        for c in columns {
            c.write_fields(row, &mut w).context("writing CSV")?;
        }
        w.write_record(None::<&[u8]>).context("writing CSV")?;
    }
    w.flush().context("writing CSV")
}

/// [`write_csv`]'s rows of a table of counts: each value in decimal, `,` between them, `\n`
/// after each row, as the `csv` crate writes them.
fn write_counts<'r, T: 'r>(
    counts: &[fn(&T) -> u64],
    rows: impl IntoIterator<Item = &'r T>,
    mut out: impl Write,
) -> Result<()> {
    /// Bytes formatted before each write.
    const BATCH: usize = 1 << 16;
    let mut text = Vec::with_capacity(BATCH + 21 * counts.len());
    let mut digits = itoa::Buffer::new();
    for row in rows {
        for (i, f) in counts.iter().enumerate() {
            if i > 0 {
                text.push(b',');
            }
            text.extend_from_slice(digits.format(f(row)).as_bytes());
        }
        text.push(b'\n');
        if text.len() >= BATCH {
            out.write_all(&text).context("writing CSV")?;
            text.clear();
        }
    }
    out.write_all(&text).context("writing CSV")?;
    out.flush().context("writing CSV")
}

/// A table in its JSON form: serialises as an array with one object per row, the columns' keys
/// in order.
pub struct Rows<'a, T> {
    /// The columns.
    pub columns: &'a [Column<T>],
    /// The rows.
    pub rows: &'a [T],
}

/// One row as a JSON object.
struct Row<'a, T> {
    columns: &'a [Column<T>],
    row: &'a T,
}

impl<T> Serialize for Row<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.columns.len()))?;
        for c in self.columns {
            c.serialize_field(self.row, &mut map)?;
        }
        map.end()
    }
}

impl<T> Serialize for Rows<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.rows.len()))?;
        for row in self.rows {
            seq.serialize_element(&Row {
                columns: self.columns,
                row,
            })?;
        }
        seq.end()
    }
}

impl<T> std::fmt::Debug for Rows<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows")
            .field(
                "columns",
                &self.columns.iter().map(|c| c.key).collect::<Vec<_>>(),
            )
            .field("rows", &self.rows.len())
            .finish()
    }
}

/// `rows` as CSV text ([`write_csv`]).
pub fn csv<'r, T: 'r>(columns: &[Column<T>], rows: impl IntoIterator<Item = &'r T>) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail, and every field is UTF-8.
    let _ = write_csv(columns, rows, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Row {
        name: &'static str,
        n: u64,
        e: Option<Estimate>,
    }

    const COLUMNS: &[Column<Row>] = &[
        Column::text("user", "user", |r| r.name.to_owned()),
        Column::count("tasks", "tasks", |r| r.n),
        Column::estimate("delay s", "delay_s", |r| r.e, 1),
    ];

    fn rows() -> Vec<Row> {
        vec![
            Row {
                name: "U1, fast",
                n: 3,
                e: Some(Estimate {
                    mean: 2.25,
                    half_width: Some(0.5),
                    n: 3,
                }),
            },
            Row {
                name: "say \"x\"",
                n: 1,
                e: Some(Estimate {
                    mean: 4.0,
                    half_width: None,
                    n: 1,
                }),
            },
            Row {
                name: "U3",
                n: 0,
                e: None,
            },
        ]
    }

    /// A name with a comma or a quote is one quoted field; a missing half-width or value is an
    /// empty field, never 0; the header has as many fields as every line.
    #[test]
    fn csv_quotes_names_and_leaves_missing_values_empty() {
        assert_eq!(
            csv(COLUMNS, &rows()),
            "user,tasks,delay_s,delay_s_hw\n\
             \"U1, fast\",3,2.25,0.5\n\
             \"say \"\"x\"\"\",1,4,\n\
             U3,0,,\n"
        );
    }

    /// A table of counts only takes the direct path; its bytes are what the `csv` crate writes
    /// for the same values (here through a text column beside them, which keeps the crate's
    /// path, then cut off).
    #[test]
    fn counts_only_are_the_bytes_the_csv_crate_writes() {
        const COUNTS: &[Column<Row>] = &[
            Column::count("tasks", "tasks", |r| r.n),
            Column::count("big", "big", |r| u64::MAX - r.n),
        ];
        const WITH_TEXT: &[Column<Row>] = &[
            Column::count("tasks", "tasks", |r| r.n),
            Column::count("big", "big", |r| u64::MAX - r.n),
            Column::text("user", "user", |_| "u".to_owned()),
        ];
        let rows: Vec<Row> = (0..5_000)
            .map(|n| Row {
                name: "",
                n,
                e: None,
            })
            .collect();
        let direct = csv(COUNTS, &rows);
        let through_csv: String = csv(WITH_TEXT, &rows)
            .lines()
            .map(|l| format!("{}\n", l.rsplit_once(',').unwrap().0))
            .collect();
        assert_eq!(direct, through_csv);
        assert!(direct.starts_with("tasks,big\n0,18446744073709551615\n1,"));
        assert_eq!(direct.lines().count(), 5_001);
        assert_eq!(csv(COUNTS, &[]), "tasks,big\n");
    }

    /// The JSON form has the CSV's keys, an estimate as one object, and `null` where the CSV
    /// leaves a field empty.
    #[test]
    fn json_has_the_csv_keys_and_null_for_missing_values() {
        let rows = rows();
        let v = serde_json::to_value(Rows {
            columns: COLUMNS,
            rows: &rows,
        })
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!([
                {"user": "U1, fast", "tasks": 3, "delay_s": {"mean": 2.25, "half_width": 0.5, "n": 3}},
                {"user": "say \"x\"", "tasks": 1, "delay_s": {"mean": 4.0, "half_width": null, "n": 1}},
                {"user": "U3", "tasks": 0, "delay_s": null},
            ])
        );
    }

    /// The text shows an estimate as mean ± half-width, a missing one as `-`, names left and
    /// numbers right.
    #[test]
    fn text_aligns_and_shows_missing_values_as_a_dash() {
        assert_eq!(
            text(COLUMNS, &rows()),
            "user      tasks    delay s\n\
             --------  -----  ---------\n\
             U1, fast      3  2.2 ± 0.5\n\
             say \"x\"       1        4.0\n\
             U3            0          -\n"
        );
    }
}
