//! Output paths: checked before any work, written whole or not at all.
//!
//! - [`check_dir`] and [`check_file`] look at an output path given on the command line before a
//!   simulation starts, so a bad one fails at once, naming the option and the path.
//! - [`write_dir`] (or [`Staged`], when the writing is spread out) writes a folder into a
//!   temporary sibling `DIR.tmp-<pid>` and then puts it in place of `DIR`: a reader never sees a
//!   mixture of two runs, and no file of an earlier run survives in a folder written anew.
//! - [`write_file`] writes a file into a temporary sibling `FILE.tmp-<pid>` and renames it into
//!   place: a file under its final name is always complete.
//!
//! What a crash (the process killed) leaves, and a power cut too (every file and folder is
//! synced before it is renamed into place):
//! - while writing: the old `DIR` or `FILE` untouched (or none), and the temporary sibling,
//!   complete or not, which nothing reads (remove it by hand). An error, unlike a crash, removes
//!   the temporary sibling.
//! - replacing an existing folder takes two renames (`DIR` to `DIR.old-<pid>`, then
//!   `DIR.tmp-<pid>` to `DIR`) and a removal: between the renames `DIR` is missing, and the old
//!   folder (whole, as `DIR.old-<pid>`) and the new one (whole, as `DIR.tmp-<pid>`) are both
//!   there; after them, `DIR` is the new folder and `DIR.old-<pid>` may remain until removed.
//!
//! What reaches a terminal is printable: [`Printable`] (standard output) and [`printable`]
//! (a message, a progress label) show every control character but newline and tab as its
//! escape (`\u{1b}`), so a name in a scenario or a trace cannot move the cursor, clear the
//! screen or retitle the window. JSON escapes them itself; CSV and files keep them as given.
//!
//! A symbolic link is never written through, nor silently replaced: an output path that is a
//! link (but to a device or a pipe: `/dev/stdout`, `/dev/null`) is refused, naming the link and
//! its target, so that `--out latest` where `latest` links to an earlier run cannot leave the
//! link and the folder it named out of step.
//!
//! Replacing a folder deletes what it held, so an existing `DIR` is replaced only if it is empty
//! or looks like a qosgate output folder (it holds `summary.json` or `index.html`): a mistyped
//! `--out ~` fails instead of deleting a home directory.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The files one of qosgate's output folders holds at its top (`run --out`: `summary.json`;
/// `reproduce --out`: `index.html`); an existing folder holding neither is not replaced.
const MARKERS: [&str; 2] = ["summary.json", "index.html"];

/// Checks the folder `path` given as `option` that is written anew (replaced whole), before
/// any work: it is not an existing file, an existing one may be replaced (empty or an output
/// folder), and the directory that holds it exists and takes a new file (a probe created and
/// removed).
///
/// Errors: each of these, naming `option` and `path`.
pub fn check_dir(option: &str, path: &Path) -> Result<()> {
    split(path).with_context(|| format!("{option} {}", path.display()))?;
    not_a_link(path).with_context(|| format!("{option} {}", path.display()))?;
    if path.exists() {
        replaceable(path).with_context(|| format!("{option} {}", path.display()))?;
    }
    check_parent(option, path)
}

/// Checks the folder `path` given as `option` that files are added to (run files of shards),
/// before any work: it is not an existing file and takes a new file (itself if it exists, else
/// the directory that holds it; a probe created and removed).
///
/// Errors: each of these, naming `option` and `path`.
pub fn check_store(option: &str, path: &Path) -> Result<()> {
    if !path.exists() {
        return check_parent(option, path);
    }
    if !path.is_dir() {
        bail!(
            "{option} {}: an existing file, not a directory",
            path.display()
        );
    }
    probe(option, path, path)
}

/// Checks the file `path` given as `option`, before any work: it is not an existing directory,
/// and the directory that holds it exists and takes a new file (a probe created and removed).
///
/// Errors: each of these, naming `option` and `path`.
pub fn check_file(option: &str, path: &Path) -> Result<()> {
    not_a_link(path).with_context(|| format!("{option} {}", path.display()))?;
    if path.is_dir() {
        bail!(
            "{option} {}: an existing directory, not a file",
            path.display()
        );
    }
    check_parent(option, path)
}

/// The parent of `path` exists, is a directory and takes a new file.
fn check_parent(option: &str, path: &Path) -> Result<()> {
    let (parent, _) = split(path).with_context(|| format!("{option} {}", path.display()))?;
    let problem = if !parent.exists() {
        "does not exist"
    } else if !parent.is_dir() {
        "is not a directory"
    } else {
        return probe(option, path, &parent);
    };
    bail!(
        "{option} {}: the directory {} {problem}",
        path.display(),
        parent.display()
    )
}

/// The directory `dir` takes a new file: a probe is created and removed.
fn probe(option: &str, path: &Path, dir: &Path) -> Result<()> {
    let probe = dir.join(format!(".qosgate-probe-{}", std::process::id()));
    File::create(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .with_context(|| {
            format!(
                "{option} {}: cannot write in the directory {}",
                path.display(),
                dir.display()
            )
        })
}

/// Writes the folder `dir` whole: `write` fills a new, empty temporary sibling, which then
/// replaces `dir` (module doc: what a crash leaves).
///
/// Errors: `write`'s own (the temporary sibling is then removed and `dir` left as it was),
/// an existing `dir` that is a file or not an output folder, or a failed create or rename
/// (named).
pub fn write_dir(dir: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let staged = Staged::begin(dir)?;
    write(staged.path())?;
    staged.commit()
}

/// A folder being written in a temporary sibling of its final place, for writing spread over a
/// run ([`write_dir`] when it is one call). Dropped without [`Staged::commit`], it removes the
/// temporary sibling.
#[derive(Debug)]
pub struct Staged {
    dir: PathBuf,
    tmp: PathBuf,
    committed: bool,
}

impl Staged {
    /// Creates the empty temporary sibling `DIR.tmp-<pid>` (removing a leftover of that name).
    ///
    /// Errors: an existing `dir` that is a file or not an output folder, or a failed create.
    pub fn begin(dir: &Path) -> Result<Staged> {
        not_a_link(dir).with_context(|| dir.display().to_string())?;
        if dir.exists() {
            replaceable(dir).with_context(|| dir.display().to_string())?;
        }
        let tmp = tagged(dir, "tmp")?;
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp)
                .with_context(|| format!("removing the leftover {}", tmp.display()))?;
        }
        std::fs::create_dir(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        Ok(Staged {
            dir: dir.to_owned(),
            tmp,
            committed: false,
        })
    }

    /// Where to write the folder's files.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Puts the written folder in place of `dir`, removing the old one (module doc: what a crash
    /// leaves). Every file and folder written is synced first, so that after a power cut the
    /// folder under its final name is whole, as after a crash.
    ///
    /// Errors: a failed sync or rename (the old folder is moved back if the new one cannot take
    /// its place) or a failed removal of the old folder (named).
    pub fn commit(mut self) -> Result<()> {
        sync_tree(&self.tmp)?;
        let old = tagged(&self.dir, "old")?;
        let had = self.dir.exists();
        if had {
            std::fs::rename(&self.dir, &old)
                .with_context(|| format!("renaming {} to {}", self.dir.display(), old.display()))?;
        }
        if let Err(e) = std::fs::rename(&self.tmp, &self.dir) {
            if had {
                let _ = std::fs::rename(&old, &self.dir);
            }
            return Err(e).with_context(|| {
                format!("renaming {} to {}", self.tmp.display(), self.dir.display())
            });
        }
        self.committed = true;
        if let Some(parent) = self.dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync(parent)?;
        }
        if had {
            std::fs::remove_dir_all(&old)
                .with_context(|| format!("removing the old folder {}", old.display()))?;
        }
        Ok(())
    }
}

/// Syncs the file or folder `path` to its device.
///
/// Errors: a failed open or sync (named).
fn sync(path: &Path) -> Result<()> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("syncing {}", path.display()))
}

/// Syncs the folder `dir`, every file in it and every folder below it.
///
/// Errors: a failed read, open or sync (named).
fn sync_tree(dir: &Path) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry
            .with_context(|| format!("reading {}", dir.display()))?
            .path();
        if path.is_dir() {
            sync_tree(&path)?;
        } else {
            sync(&path)?;
        }
    }
    sync(dir)
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Writes the file `path` whole: `write` fills a temporary sibling `FILE.tmp-<pid>`, which is
/// synced and renamed to `path` (a file under its final name is always complete, after a power
/// cut too). A `path` that exists and is not a regular file (`/dev/null`, a pipe) is written
/// directly. Returns what `write` returns.
///
/// Errors: `write`'s own (the temporary file is then removed and `path` left as it was), or a
/// failed create, flush or rename (named).
pub fn write_file<T>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<T>,
) -> Result<T> {
    not_a_link(path).with_context(|| path.display().to_string())?;
    let special = path.metadata().is_ok_and(|m| !m.is_file());
    let tmp = if special {
        path.to_owned()
    } else {
        tagged(path, "tmp")?
    };
    let result = File::create(&tmp)
        .with_context(|| format!("creating {}", tmp.display()))
        .and_then(|f| {
            let mut w = BufWriter::new(f);
            let value = write(&mut w)?;
            // Synced before the rename, so that after a power cut the name holds the text.
            w.into_inner()
                .map_err(|e| e.into_error())
                .and_then(|f| if special { Ok(()) } else { f.sync_all() })
                .with_context(|| format!("writing {}", tmp.display()))?;
            Ok(value)
        });
    if special {
        return result;
    }
    let renamed = result.and_then(|value| {
        std::fs::rename(&tmp, path)
            .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
        // The rename itself reaches the device with its folder.
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync(parent)?;
        }
        Ok(value)
    });
    if renamed.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    renamed
}

/// `path` is not a symbolic link, unless to a device or a pipe (`/dev/stdout`, `/dev/null`),
/// which is written through.
///
/// Errors: a link to anything else, or a dangling one, naming its target.
fn not_a_link(path: &Path) -> Result<()> {
    let is_link = path
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(());
    }
    let target = std::fs::read_link(path).unwrap_or_default();
    let special = path.metadata().is_ok_and(|m| !m.is_file() && !m.is_dir());
    if special {
        return Ok(());
    }
    bail!(
        "a symbolic link (to {}), which qosgate neither writes through nor replaces: give the \
         target's own path, or remove the link",
        target.display()
    )
}

/// An existing `dir` may be replaced: a directory, empty or holding one of [`MARKERS`].
fn replaceable(dir: &Path) -> Result<()> {
    if !dir.is_dir() {
        bail!("an existing file, not a directory");
    }
    let mut entries = std::fs::read_dir(dir).context("reading the directory")?;
    if entries.next().is_none() || MARKERS.iter().any(|m| dir.join(m).exists()) {
        return Ok(());
    }
    bail!(
        "an existing directory that is not a qosgate output folder (no {}), which writing \
         would replace: give a new or empty directory",
        MARKERS.join(" or ")
    )
}

/// The directory holding `path` (`.` for a bare name) and its last component.
///
/// Errors: a path without a last component to name (`/`, `..`).
fn split(path: &Path) -> Result<(PathBuf, &std::ffi::OsStr)> {
    let name = path
        .file_name()
        .context("names no file or folder (give a path ending in a name)")?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

/// `path`'s sibling `NAME.<what>-<pid>`.
fn tagged(path: &Path, what: &str) -> Result<PathBuf> {
    let (parent, name) = split(path).with_context(|| path.display().to_string())?;
    let mut tagged = name.to_owned();
    tagged.push(format!(".{what}-{}", std::process::id()));
    Ok(parent.join(tagged))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A fresh empty directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("qosgate-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn failing_writer_leaves_the_old_folder_and_no_temporary_sibling() {
        let root = scratch("fail");
        let dir = root.join("out");
        write_dir(&dir, |d| Ok(std::fs::write(d.join("summary.json"), "old")?)).unwrap();
        let e = write_dir(&dir, |d| {
            std::fs::write(d.join("summary.json"), "new")?;
            bail!("the plot failed")
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "the plot failed");
        assert_eq!(names(&root), ["out"]);
        assert_eq!(names(&dir), ["summary.json"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("summary.json")).unwrap(),
            "old"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_folder_written_anew_keeps_no_stale_file() {
        let root = scratch("stale");
        let dir = root.join("out");
        write_dir(&dir, |d| {
            std::fs::write(d.join("summary.json"), "old")?;
            Ok(std::fs::write(d.join("fig9.svg"), "old")?)
        })
        .unwrap();
        write_dir(&dir, |d| Ok(std::fs::write(d.join("summary.json"), "new")?)).unwrap();
        assert_eq!(names(&root), ["out"]);
        assert_eq!(names(&dir), ["summary.json"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_folder_that_is_not_an_output_is_never_replaced() {
        let root = scratch("foreign");
        std::fs::write(root.join("notes.txt"), "mine").unwrap();
        let e = write_dir(&root, |_| Ok(())).unwrap_err();
        assert!(
            format!("{e:#}").contains("not a qosgate output folder"),
            "{e:#}"
        );
        assert_eq!(names(&root), ["notes.txt"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_failing_file_writer_leaves_the_old_file_and_no_temporary() {
        let root = scratch("file");
        let path = root.join("e.jsonl");
        write_file(&path, |w| Ok(w.write_all(b"old\n")?)).unwrap();
        let e = write_file(&path, |w| -> Result<()> {
            w.write_all(b"{\"half")?;
            bail!("killed")
        });
        assert!(e.is_err());
        assert_eq!(names(&root), ["e.jsonl"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn bad_output_paths_are_named_with_their_option() {
        let root = scratch("check");
        let file = root.join("f");
        std::fs::write(&file, "").unwrap();
        let msg = |r: Result<()>| format!("{:#}", r.unwrap_err());
        assert!(msg(check_dir("--out", &file)).contains("--out"));
        assert!(msg(check_dir("--out", &file)).contains("an existing file"));
        assert!(msg(check_file("--events", &root)).contains("an existing directory"));
        assert!(msg(check_dir("--out", &root.join("no/such"))).contains("does not exist"));
        assert!(msg(check_dir("--out", Path::new("/"))).contains("names no file"));
        check_dir("--out", &root.join("new")).unwrap();
        check_file("--events", &file).unwrap();
        assert_eq!(names(&root), ["f"]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}

/// Whether `c` is shown as an escape: a control character (C0, DEL, C1) but newline and tab.
fn hidden(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with every control character but newline and tab shown as its escape (`\u{1b}`).
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that passes text on with its control characters shown as escapes ([`printable`]):
/// what `qosgate` writes to standard output goes through one. Bytes that are not UTF-8 pass
/// unchanged; a character split across two writes is held until the second.
#[derive(Debug)]
pub struct Printable<W: Write> {
    inner: W,
    /// The start of a character the last write ended in the middle of.
    held: Vec<u8>,
}

impl<W: Write> Printable<W> {
    /// A printable writer over `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            held: Vec::new(),
        }
    }
}

impl<W: Write> Write for Printable<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Copied only to join a character split across two writes.
        let joined;
        let mut rest = if self.held.is_empty() {
            buf
        } else {
            joined = [std::mem::take(&mut self.held).as_slice(), buf].concat();
            &joined[..]
        };
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    self.inner.write_all(printable(text).as_bytes())?;
                    rest = &[];
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    // Valid by construction: the prefix `from_utf8` vouched for.
                    let text = std::str::from_utf8(good).unwrap_or_default();
                    self.inner.write_all(printable(text).as_bytes())?;
                    match e.error_len() {
                        Some(n) => {
                            self.inner.write_all(&bad[..n])?;
                            rest = &bad[n..];
                        }
                        None => {
                            self.held = bad.to_vec();
                            rest = &[];
                        }
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.held.is_empty() {
            let held = std::mem::take(&mut self.held);
            self.inner.write_all(&held)?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod printable_tests {
    use super::*;

    /// Escape sequences and C1 controls come out as escapes; newlines, tabs and other text
    /// (accents, a character split across two writes) unchanged.
    #[test]
    fn control_characters_come_out_as_escapes() {
        assert_eq!(
            printable("U1\u{1b}[2J\u{9b}\r\tok\n"),
            "U1\\u{1b}[2J\\u{9b}\\u{d}\tok\n"
        );
        let mut w = Printable::new(Vec::new());
        let text = "é\u{1b}]0;title\u{7}\n".as_bytes();
        w.write_all(&text[..1]).unwrap();
        w.write_all(&text[1..]).unwrap();
        w.write_all(&[0xff, b'x']).unwrap();
        w.flush().unwrap();
        let mut want = "é\\u{1b}]0;title\\u{7}\n".as_bytes().to_vec();
        want.extend([0xff, b'x']);
        assert_eq!(w.inner, want);
    }

    /// What `bytes` should come out as, from the standard library's UTF-8 decoder: each valid
    /// run through [`printable`], each invalid sequence as it was.
    fn reference(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for chunk in bytes.utf8_chunks() {
            out.extend(printable(chunk.valid()).as_bytes());
            out.extend(chunk.invalid());
        }
        out
    }

    /// Bytes that are mostly text with controls, multi-byte characters and broken sequences.
    fn texty() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            any::<char>().prop_map(|c| c.to_string().into_bytes()),
            prop::sample::select(vec!["\u{1b}[2J", "\u{9b}", "\r\n", "\t", "é", "€", "𝄞"])
                .prop_map(|s| s.as_bytes().to_vec()),
            any::<u8>().prop_map(|b| vec![b]),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        /// However the bytes are split across writes, the output is the reference's: no
        /// control character but newline and tab reaches the terminal, every other byte of
        /// text or not arrives, and nothing is held after `flush`.
        #[test]
        fn any_split_of_any_bytes_gives_the_decoders_output(
            bytes in texty(),
            cuts in proptest::collection::vec(0usize..64, 0..6),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.push(0);
            cuts.push(bytes.len());
            cuts.sort_unstable();
            let mut w = Printable::new(Vec::new());
            for pair in cuts.windows(2) {
                w.write_all(&bytes[pair[0]..pair[1]]).unwrap();
            }
            w.flush().unwrap();
            let want = reference(&bytes);
            proptest::prop_assert_eq!(&w.inner, &want);
            for chunk in w.inner.utf8_chunks() {
                proptest::prop_assert!(!chunk.valid().chars().any(hidden));
            }
        }
    }
}

#[cfg(test)]
mod link_tests {
    use super::*;

    /// A link to a file, to a folder or to nothing is refused by the checks and by the writers,
    /// and nothing is written through it; a link to a device is written through.
    #[test]
    fn outputs_refuse_symbolic_links_but_to_devices() {
        let dir = std::env::temp_dir().join(format!("qosgate-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("run")).unwrap();
        std::fs::write(dir.join("file"), "old\n").unwrap();
        let link = |name: &str, to: &Path| {
            let at = dir.join(name);
            std::os::unix::fs::symlink(to, &at).unwrap();
            at
        };
        let to_file = link("to-file", &dir.join("file"));
        let to_dir = link("to-dir", &dir.join("run"));
        let dangling = link("dangling", &dir.join("nothing"));
        let to_null = link("to-null", Path::new("/dev/null"));
        for path in [&to_file, &dangling] {
            let e = check_file("--events", path).unwrap_err();
            assert!(format!("{e:#}").contains("a symbolic link"), "{e:#}");
            assert!(write_file(path, |w| Ok(w.write_all(b"new\n")?)).is_err());
        }
        assert!(check_dir("--out", &to_dir).is_err());
        assert!(write_dir(&to_dir, |_| Ok(())).is_err());
        assert_eq!(std::fs::read_to_string(dir.join("file")).unwrap(), "old\n");
        assert!(!dir.join("nothing").exists());
        assert!(
            std::fs::symlink_metadata(&to_dir)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        check_file("--events", &to_null).unwrap();
        write_file(&to_null, |w| Ok(w.write_all(b"gone\n")?)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
