//! Plain-text rendering: aligned tables, wrapped prose and grouped numbers.

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

/// A mean shown with `.1` decimals (the second field), or `n/a` when undefined (NaN).
pub struct V(pub f64, pub usize);

impl std::fmt::Display for V {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_nan() {
            f.write_str("n/a")
        } else {
            write!(f, "{:.*}", self.1, self.0)
        }
    }
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
    }
}
