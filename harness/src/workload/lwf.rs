//! Reading lease workloads in Haizea's LWF (Lease Workload Format, XML; the Haizea manual's
//! "XML reference" appendix), the subset `qosgate leases` replays. `docs/leases.md` states the
//! subset for users; this is the reference.
//!
//! # The format
//! ```xml
//! <lease-workload name="...">
//!   <description>...</description>                    (optional, ignored)
//!   <site>                                             (optional)
//!     <resource-types names="CPU Memory"/>
//!     <nodes>
//!       <node-set numnodes="4">
//!         <res type="CPU" amount="100"/>
//!         <res type="Memory" amount="1024"/>
//!       </node-set>
//!     </nodes>
//!   </site>
//!   <lease-requests>
//!     <lease-request arrival="00:15:00.00">
//!       <lease id="2" preemptible="false">
//!         <nodes> <node-set numnodes="4"> <res .../> ... </node-set> ... </nodes>
//!         <start> <exact time="00:30:00.00"/> </start>  (or <start/>, or <start><now/></start>)
//!         <duration time="00:30:00.00"/>
//!         <software> ... </software>                      (optional, ignored)
//!       </lease>
//!     </lease-request>
//!     ...
//!   </lease-requests>
//! </lease-workload>
//! ```
//!
//! # What is accepted
//! - **Elements.** Exactly the structure above: each element may hold the children shown, each
//!   once (`node-set`, `res` and `lease-request` repeat); any other child element is an error
//!   naming the ones allowed there. Text, comments and processing instructions are ignored, and
//!   so are attributes this reader does not use (Haizea writes `state` and `submit-time`).
//!   Namespaces are ignored. A DTD is an error (roxmltree's default, so no entity expansion).
//! - **Times** (`arrival`, `<exact time>`, `<duration time>`): `HH:MM:SS` or `DD:HH:MM:SS`, each
//!   optionally with a fraction of a second of up to six digits (`01:00:00.00`), surrounding
//!   whitespace allowed. Minutes and seconds are below 60, hours below 24 when days are given;
//!   the leading field has any number of digits. Instants count from the workload's start,
//!   `00:00:00` (the manual: "all times are specified relative to that starting time"). Kept in
//!   the kernel's ticks (µs), exactly.
//! - **Start.** `<start/>` (empty): best effort. `<start><now/></start>`: immediate.
//!   `<start><exact time="T"/></start>`: an advance reservation at instant `T`, or, with a `+`
//!   before the time, `T` after the request's arrival (the manual's relative start, "relative to
//!   the time the lease is submitted"). An absolute `T` before the arrival is an error; so is an
//!   ISO date (`YYYY-MM-DD HH:MM:SS`): an LWF workload has no calendar.
//! - **`preemptible`** (required): `true`, `false`, `yes` or `no`, in any case.
//! - **`id`** (optional): a non-negative integer, unique in the file; Haizea numbers leases
//!   itself, so it is only a label.
//! - **Nodes.** A lease's `<nodes>` holds one or more `<node-set numnodes="N">` (`N >= 1`); the
//!   lease asks for the sum of their `N` VMs, at most `u32::MAX`. `<res type amount>` gives what
//!   each VM of the set needs: `amount` a non-negative integer, each type once per set, and with
//!   a `<site>` only the types of its `<resource-types>`. Multi-instance resources
//!   (`<res><instance/></res>`) are not accepted.
//! - **Site.** `<resource-types names>` (required, whitespace-separated, no repeats) and
//!   `<nodes>` as above, every `res` type among those names. A resource type a node-set leaves
//!   out has amount 0 there (the manual). All node-sets must have the same capacity: the
//!   kernel's cluster is one of identical nodes ([`Site::capacity`]); [`Site::nodes`] is their
//!   sum.
//! - **Not supported** (an error naming the element): `<deadline>` (Haizea's deadline leases)
//!   and `<realduration>` (a lease ending before its requested duration: the kernel plans and
//!   runs the requested duration).
//!
//! # Order
//! [`Workload::requests`] are in order of arrival; requests arriving together keep the file's
//! order (a stable sort). [`Request::number`] is the position in the file, from 1.
//!
//! # Errors
//! The first problem, as `line:column: what is wrong` ([`LwfError`]; line and column from 1,
//! the column in characters): of the XML (roxmltree's message and position), of an element
//! (missing, repeated or unknown: the position of the element, or of its parent when missing),
//! or of an attribute (missing: the element's position; bad: the value's). Text that is not
//! UTF-8 is an error at the first bad byte.
//!
//! # Invariants of a returned [`Workload`] (checked by the fuzz target)
//! Every request has `nodes >= 1` equal to the sum of its node-sets' counts, `duration >= 1`
//! tick, an exact start (if any) at or after its arrival and `start + duration` within the
//! kernel's clock; the requests are sorted by `(arrival, number)`; ids are unique; a site has at
//! least one node and every resource type named in a request's or the site's node-sets is one
//! of the site's types.

use std::fmt;
use std::path::Path;

use anyhow::Result;
use qosgate_kernel::units::{Nodes, TICKS_PER_SECOND, Ticks};
use roxmltree::{Document, Node};
use serde::Serialize;

use crate::config::{Lines, line_column};

/// A position in the text: line and column from 1 (the column in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1, in characters.
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why a file is not a workload this reader accepts, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LwfError {
    /// Where the problem is.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LwfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

impl std::error::Error for LwfError {}

/// How a lease wants to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// `<start/>`: as soon as resources allow (best effort).
    BestEffort,
    /// `<start><now/></start>`: at its arrival or not at all (immediate).
    Now,
    /// `<start><exact time/></start>`: at this instant (an advance reservation), counted from the
    /// workload's start.
    Exact(Ticks),
}

/// A resource and its amount: what a VM needs or what a node has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The type's name (`CPU`, `Memory`, ...).
    pub kind: String,
    /// The amount, in the type's own unit.
    pub amount: u64,
}

/// A `<node-set>`: `count` nodes (VMs, in a lease) of the same capacity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSet {
    /// `numnodes`, at least 1.
    pub count: Nodes,
    /// The `<res>` elements, in file order, each type once.
    pub resources: Vec<Resource>,
    /// Where the `<node-set>` is.
    pub at: Pos,
}

impl NodeSet {
    /// The amount of `kind` each node of the set has (or needs): 0 if it is not listed.
    pub fn amount(&self, kind: &str) -> u64 {
        self.resources
            .iter()
            .find(|r| r.kind == kind)
            .map_or(0, |r| r.amount)
    }
}

/// The `<site>`: the cluster the workload was written for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// `<resource-types names>`, in file order.
    pub resource_types: Vec<String>,
    /// The node-sets (all of the same capacity).
    pub node_sets: Vec<NodeSet>,
    /// Where the `<site>` is.
    pub at: Pos,
}

impl Site {
    /// Nodes in all: the sum of the node-sets' counts (at least 1).
    pub fn nodes(&self) -> u64 {
        self.node_sets.iter().map(|s| u64::from(s.count)).sum()
    }

    /// What each node has: every resource type with its amount (0 where the node-sets leave it
    /// out), in the order of `resource_types`.
    pub fn capacity(&self) -> Vec<Resource> {
        self.resource_types
            .iter()
            .map(|kind| Resource {
                kind: kind.clone(),
                amount: self.node_sets.first().map_or(0, |s| s.amount(kind)),
            })
            .collect()
    }
}

/// One `<lease-request>` and its `<lease>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Its position among the file's lease requests, from 1.
    pub number: usize,
    /// The `<lease id>`, if given.
    pub id: Option<u64>,
    /// Where the `<lease-request>` is.
    pub at: Pos,
    /// When it is submitted, from the workload's start.
    pub arrival: Ticks,
    /// `<lease preemptible>`.
    pub preemptible: bool,
    /// How it wants to start.
    pub start: Start,
    /// The requested duration, at least one tick.
    pub duration: Ticks,
    /// VMs (nodes) in all, at least 1: the sum of `node_sets`' counts.
    pub nodes: Nodes,
    /// Its `<node-set>`s: how many VMs of what size.
    pub node_sets: Vec<NodeSet>,
}

impl Request {
    /// How reports name it: its `id`, or `#number` without one.
    pub fn label(&self) -> String {
        match self.id {
            Some(id) => id.to_string(),
            None => format!("#{}", self.number),
        }
    }
}

/// A lease workload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    /// `<lease-workload name>`, if given.
    pub name: Option<String>,
    /// The `<site>`, if given.
    pub site: Option<Site>,
    /// The requests, by arrival (ties in file order).
    pub requests: Vec<Request>,
}

/// Reads the LWF file at `path`; errors are `path:line:column: ...`.
///
/// Errors: the file cannot be read; any error of [`parse`].
pub fn read_path(path: &Path) -> Result<Workload> {
    let bytes = crate::input::read_file(path, &crate::input::LWF)?;
    parse(&bytes).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))
}

/// Reads a workload from the bytes of an LWF file.
///
/// Errors: the first problem, with its position (see the module's documentation).
pub fn parse(bytes: &[u8]) -> Result<Workload, LwfError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
        // The prefix is valid UTF-8 by construction.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        LwfError {
            pos: end_of(before),
            message: "the text is not UTF-8".into(),
        }
    })?;
    let doc = Document::parse(text).map_err(|e| {
        let p = e.pos();
        let message = e.to_string();
        // roxmltree ends its message with the position, which the error leads with.
        let message = message
            .strip_suffix(&format!(" at {p}"))
            .unwrap_or(&message);
        LwfError {
            pos: Pos {
                line: p.row,
                column: p.col,
            },
            message: format!("not well-formed XML: {message}"),
        }
    })?;
    Reader {
        doc: &doc,
        lines: Lines::new(text),
    }
    .workload()
}

/// The position just after `text`.
fn end_of(text: &str) -> Pos {
    let (line, column) = line_column(text, text.len());
    Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// Parses an LWF time, `[DD:]HH:MM:SS[.ffffff]`, into ticks.
///
/// Errors: a message saying what is wrong with `text`.
pub fn parse_time(text: &str) -> Result<Ticks, String> {
    let t = text.trim();
    let bad =
        || format!("`{t}` is not a time: expected HH:MM:SS or DD:HH:MM:SS, with up to 6 decimals");
    let (whole, fraction) = match t.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (t, None),
    };
    let fields: Vec<&str> = whole.split(':').collect();
    if !(3..=4).contains(&fields.len())
        || fields
            .iter()
            .any(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad());
    }
    let micros = match fraction {
        None => 0,
        Some(f) if (1..=6).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) => {
            // At most six digits: fits, and scales to µs exactly.
            let digits: u64 = f.parse().map_err(|_| bad())?;
            digits * 10u64.pow(6 - f.len() as u32)
        }
        Some(_) => return Err(bad()),
    };
    let too_large = || format!("`{t}` is beyond the kernel's clock");
    let value = |f: &str| f.parse::<u64>().map_err(|_| too_large());
    let (leading, rest) = fields.split_at(fields.len() - 3);
    let [h, m, s] = rest else {
        return Err(bad());
    };
    let (days, hours, minutes, seconds) = match leading {
        [d] => (value(d)?, value(h)?, value(m)?, value(s)?),
        _ => (0, value(h)?, value(m)?, value(s)?),
    };
    if minutes >= 60 || seconds >= 60 || (!leading.is_empty() && hours >= 24) {
        return Err(format!(
            "`{t}`: minutes and seconds must be below 60{}",
            if leading.is_empty() {
                ""
            } else {
                ", hours below 24 after days"
            }
        ));
    }
    days.checked_mul(24)
        .and_then(|h| h.checked_add(hours))
        .and_then(|h| h.checked_mul(60))
        .and_then(|m| m.checked_add(minutes))
        .and_then(|m| m.checked_mul(60))
        .and_then(|s| s.checked_add(seconds))
        .and_then(|s| s.checked_mul(TICKS_PER_SECOND))
        .and_then(|us| us.checked_add(micros))
        .map(Ticks::new)
        .ok_or_else(too_large)
}

/// Walks a parsed document.
struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    /// The document's lines, to locate any node without a scan from the start.
    lines: Lines<'input>,
}

type Found<T> = Result<T, LwfError>;

/// Elements of Haizea's lease format this reader does not accept, and why.
const UNSUPPORTED: [(&str, &str); 2] = [
    (
        "deadline",
        "deadline leases are not supported (the replay has advance reservations, best-effort \
         and immediate leases)",
    ),
    (
        "realduration",
        "a real duration is not supported: every lease runs its requested duration",
    ),
];

impl<'a, 'input> Reader<'a, 'input> {
    fn pos(&self, offset: usize) -> Pos {
        let (line, column) = self.lines.line_column(offset);
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }

    fn at(&self, node: Node) -> Pos {
        self.pos(node.range().start)
    }

    fn error(&self, pos: Pos, message: impl Into<String>) -> LwfError {
        LwfError {
            pos,
            message: message.into(),
        }
    }

    /// The child elements of `node`, after checking that each is one of `allowed` and that
    /// those not in `repeated` appear at most once.
    fn children(
        &self,
        node: Node<'a, 'input>,
        allowed: &[&str],
        repeated: &[&str],
    ) -> Found<Vec<Node<'a, 'input>>> {
        let kids: Vec<Node> = node.children().filter(Node::is_element).collect();
        let parent = node.tag_name().name();
        for (i, kid) in kids.iter().enumerate() {
            let name = kid.tag_name().name();
            if let Some((_, why)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
                return Err(self.error(self.at(*kid), format!("<{name}>: {why}")));
            }
            if !allowed.contains(&name) {
                let list = allowed
                    .iter()
                    .map(|a| format!("<{a}>"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let expected = if list.is_empty() {
                    "no element".to_string()
                } else {
                    list
                };
                return Err(self.error(
                    self.at(*kid),
                    format!("unknown element <{name}> in <{parent}>; expected {expected}"),
                ));
            }
            let before = kids.iter().take(i).find(|k| k.tag_name().name() == name);
            if let (false, Some(first)) = (repeated.contains(&name), before) {
                return Err(self.error(
                    self.at(*kid),
                    format!(
                        "a second <{name}> in <{parent}> (the first is at {})",
                        self.at(*first)
                    ),
                ));
            }
        }
        Ok(kids)
    }

    /// The child named `name` among `kids`, if any.
    fn child(kids: &[Node<'a, 'input>], name: &str) -> Option<Node<'a, 'input>> {
        kids.iter().copied().find(|k| k.tag_name().name() == name)
    }

    /// The child named `name` among `kids` of `parent`, which must be there.
    fn required(
        &self,
        parent: Node<'a, 'input>,
        kids: &[Node<'a, 'input>],
        name: &str,
    ) -> Found<Node<'a, 'input>> {
        Self::child(kids, name).ok_or_else(|| {
            self.error(
                self.at(parent),
                format!("<{}> has no <{name}>", parent.tag_name().name()),
            )
        })
    }

    /// The value of attribute `name` of `node` and its position, which must be there.
    fn attribute(&self, node: Node<'a, 'input>, name: &str) -> Found<(&'a str, Pos)> {
        node.attribute_node(name)
            .map(|a| (a.value(), self.pos(a.range_value().start)))
            .ok_or_else(|| {
                self.error(
                    self.at(node),
                    format!("<{}> has no `{name}` attribute", node.tag_name().name()),
                )
            })
    }

    /// A non-negative integer attribute.
    fn integer(&self, node: Node<'a, 'input>, name: &str) -> Found<(u64, Pos)> {
        let (text, pos) = self.attribute(node, name)?;
        let t = text.trim();
        match t.parse::<u64>() {
            Ok(n) if t.bytes().all(|b| b.is_ascii_digit()) => Ok((n, pos)),
            _ => Err(self.error(
                pos,
                format!(
                    "{name} `{t}` is not a non-negative integer (at most {})",
                    u64::MAX
                ),
            )),
        }
    }

    /// A time attribute ([`parse_time`]).
    fn time(&self, node: Node<'a, 'input>, name: &str) -> Found<(Ticks, Pos)> {
        let (text, pos) = self.attribute(node, name)?;
        parse_time(text).map(|t| (t, pos)).map_err(|m| {
            let element = node.tag_name().name();
            self.error(pos, format!("<{element}> {name}: {m}"))
        })
    }

    fn workload(&self) -> Found<Workload> {
        let root = self.doc.root_element();
        if root.tag_name().name() != "lease-workload" {
            return Err(self.error(
                self.at(root),
                format!(
                    "the root element is <{}>, not <lease-workload>",
                    root.tag_name().name()
                ),
            ));
        }
        let kids = self.children(root, &["description", "site", "lease-requests"], &[])?;
        let site = Self::child(&kids, "site")
            .map(|s| self.site(s))
            .transpose()?;
        let list = self.required(root, &kids, "lease-requests")?;
        let mut requests: Vec<Request> = Vec::new();
        // Each id's request, by its index in `requests`.
        let mut ids = std::collections::HashMap::new();
        for (i, r) in self
            .children(list, &["lease-request"], &["lease-request"])?
            .into_iter()
            .enumerate()
        {
            let request = self.request(r, i + 1, site.as_ref())?;
            if let Some(id) = request.id
                && let Some(other) = ids.insert(id, requests.len()).and_then(|k| requests.get(k))
            {
                let pos = r
                    .children()
                    .find(|k| k.tag_name().name() == "lease")
                    .and_then(|l| l.attribute_node("id"))
                    .map_or(request.at, |a| self.pos(a.range_value().start));
                return Err(self.error(
                    pos,
                    format!(
                        "lease id {id} is already the id of the lease requested at {}",
                        other.at
                    ),
                ));
            }
            requests.push(request);
        }
        requests.sort_by_key(|r| r.arrival);
        Ok(Workload {
            name: root.attribute("name").map(str::to_owned),
            site,
            requests,
        })
    }

    fn site(&self, node: Node<'a, 'input>) -> Found<Site> {
        let kids = self.children(node, &["resource-types", "nodes"], &[])?;
        let types = self.required(node, &kids, "resource-types")?;
        let (names, names_at) = self.attribute(types, "names")?;
        let mut resource_types: Vec<String> = Vec::new();
        for name in names.split_whitespace() {
            if resource_types.iter().any(|t| t == name) {
                return Err(self.error(names_at, format!("resource type `{name}` is repeated")));
            }
            resource_types.push(name.to_owned());
        }
        let nodes = self.required(node, &kids, "nodes")?;
        let node_sets = self.node_sets(nodes, Some(&resource_types))?;
        let capacity =
            |s: &NodeSet| -> Vec<u64> { resource_types.iter().map(|t| s.amount(t)).collect() };
        if let Some((first, rest)) = node_sets.split_first()
            && let Some(other) = rest.iter().find(|s| capacity(s) != capacity(first))
        {
            return Err(self.error(
                other.at,
                format!(
                    "this node-set's capacity differs from the one at {}: the replay's cluster \
                     has identical nodes",
                    first.at
                ),
            ));
        }
        Ok(Site {
            resource_types,
            node_sets,
            at: self.at(node),
        })
    }

    /// The `<node-set>`s of a `<nodes>` element (at least one); `types`, if given, are the only
    /// resource types allowed.
    fn node_sets(&self, nodes: Node<'a, 'input>, types: Option<&[String]>) -> Found<Vec<NodeSet>> {
        let sets = self.children(nodes, &["node-set"], &["node-set"])?;
        if sets.is_empty() {
            return Err(self.error(self.at(nodes), "<nodes> has no <node-set>"));
        }
        let mut out = Vec::with_capacity(sets.len());
        for set in sets {
            let (count, count_at) = self.integer(set, "numnodes")?;
            let count = Nodes::try_from(count)
                .ok()
                .filter(|&c| c >= 1)
                .ok_or_else(|| {
                    self.error(
                        count_at,
                        format!("numnodes {count} is not in 1..={}", Nodes::MAX),
                    )
                })?;
            let mut resources: Vec<Resource> = Vec::new();
            for res in self.children(set, &["res"], &["res"])? {
                if let Some(i) = res.children().find(Node::is_element) {
                    return Err(self.error(
                        self.at(i),
                        format!(
                            "<{}> in <res>: multi-instance resources are not supported",
                            i.tag_name().name()
                        ),
                    ));
                }
                let (kind, kind_at) = self.attribute(res, "type")?;
                if let Some(types) = types
                    && !types.iter().any(|t| t == kind)
                {
                    return Err(self.error(
                        kind_at,
                        format!(
                            "resource type `{kind}` is not one of the site's: {}",
                            types.join(" ")
                        ),
                    ));
                }
                if resources.iter().any(|r| r.kind == kind) {
                    return Err(self.error(
                        kind_at,
                        format!("resource type `{kind}` is repeated in this node-set"),
                    ));
                }
                let (amount, _) = self.integer(res, "amount")?;
                resources.push(Resource {
                    kind: kind.to_owned(),
                    amount,
                });
            }
            out.push(NodeSet {
                count,
                resources,
                at: self.at(set),
            });
        }
        Ok(out)
    }

    fn request(
        &self,
        node: Node<'a, 'input>,
        number: usize,
        site: Option<&Site>,
    ) -> Found<Request> {
        let at = self.at(node);
        let (arrival, _) = self.time(node, "arrival")?;
        let kids = self.children(node, &["lease"], &[])?;
        let lease = self.required(node, &kids, "lease")?;
        let id = match lease.attribute_node("id") {
            Some(_) => Some(self.integer(lease, "id")?.0),
            None => None,
        };
        let (flag, flag_at) = self.attribute(lease, "preemptible")?;
        let preemptible = match flag.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" => true,
            "false" | "no" => false,
            _ => {
                return Err(self.error(
                    flag_at,
                    format!("preemptible `{flag}` is not true, false, yes or no"),
                ));
            }
        };
        let parts = self.children(lease, &["nodes", "start", "duration", "software"], &[])?;
        let nodes = self.required(lease, &parts, "nodes")?;
        let types = site.map(|s| s.resource_types.as_slice());
        let node_sets = self.node_sets(nodes, types)?;
        let total = node_sets
            .iter()
            .try_fold(0 as Nodes, |sum, s| sum.checked_add(s.count))
            .ok_or_else(|| {
                self.error(
                    self.at(nodes),
                    format!("more than {} nodes in all", Nodes::MAX),
                )
            })?;
        let start = self.start(self.required(lease, &parts, "start")?, arrival)?;
        let duration_node = self.required(lease, &parts, "duration")?;
        let (duration, duration_at) = self.time(duration_node, "time")?;
        if duration == Ticks::ZERO {
            return Err(self.error(duration_at, "the duration must be positive"));
        }
        let begins = match start {
            Start::Exact(s) => s,
            Start::BestEffort | Start::Now => arrival,
        };
        if begins.checked_add(duration).is_none() {
            return Err(self.error(
                duration_at,
                "its start plus its duration is beyond the kernel's clock",
            ));
        }
        Ok(Request {
            number,
            id,
            at,
            arrival,
            preemptible,
            start,
            duration,
            nodes: total,
            node_sets,
        })
    }

    fn start(&self, node: Node<'a, 'input>, arrival: Ticks) -> Found<Start> {
        let kids = self.children(node, &["now", "exact"], &[])?;
        match kids.as_slice() {
            [] => Ok(Start::BestEffort),
            [one] if one.tag_name().name() == "now" => Ok(Start::Now),
            [exact] => {
                let (text, at) = self.attribute(*exact, "time")?;
                let t = text.trim();
                let (relative, time) = match t.strip_prefix('+') {
                    Some(rest) => (true, rest),
                    None => (false, t),
                };
                if time.contains('-') {
                    return Err(self.error(
                        at,
                        format!(
                            "time `{t}`: a calendar date is not accepted; LWF times count from \
                             the workload's start (00:00:00)"
                        ),
                    ));
                }
                let ticks =
                    parse_time(time).map_err(|m| self.error(at, format!("<exact> time: {m}")))?;
                let start = if relative {
                    arrival.checked_add(ticks).ok_or_else(|| {
                        self.error(at, format!("time `{t}`: beyond the kernel's clock"))
                    })?
                } else {
                    ticks
                };
                if start < arrival {
                    return Err(self.error(
                        at,
                        format!(
                            "the reservation starts at {} s, before its arrival at {} s",
                            seconds(start),
                            seconds(arrival)
                        ),
                    ));
                }
                Ok(Start::Exact(start))
            }
            [_, second, ..] => Err(self.error(
                self.at(*second),
                "<start> holds at most one of <now> and <exact>",
            )),
        }
    }
}

/// `t` in seconds, for messages (exact: at most six decimals).
fn seconds(t: Ticks) -> String {
    let (s, us) = (t.get() / TICKS_PER_SECOND, t.get() % TICKS_PER_SECOND);
    if us == 0 {
        s.to_string()
    } else {
        format!("{s}.{us:06}").trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = TICKS_PER_SECOND;

    #[test]
    fn times_read_hours_or_days_and_up_to_six_decimals() {
        let t = |s| parse_time(s).map(Ticks::get);
        assert_eq!(t("00:15:00.00"), Ok(900 * S));
        assert_eq!(t("01:00:00"), Ok(3600 * S));
        assert_eq!(t(" 00:01:00:00 "), Ok(3600 * S));
        assert_eq!(t("1:02:03:04.5"), Ok((86_400 + 7200 + 180 + 4) * S + S / 2));
        assert_eq!(t("100:00:00.000001"), Ok(360_000 * S + 1));
        for bad in [
            "",
            "3600",
            "1:2",
            "1:2:3:4:5",
            "00:60:00",
            "00:00:60",
            "1:24:00:00",
            "00:00:00.1234567",
            "00:00:00.",
            "-1:00:00",
            "00:0x:00",
            "00:00:00.-1",
        ] {
            assert!(t(bad).is_err(), "{bad:?} accepted");
        }
        assert!(
            t("213503982334:00:00:00").is_err(),
            "past the kernel's clock"
        );
    }

    #[test]
    fn seconds_print_exactly() {
        assert_eq!(seconds(Ticks::new(1800 * S)), "1800");
        assert_eq!(seconds(Ticks::new(S / 2 + 3 * S)), "3.5");
        assert_eq!(seconds(Ticks::new(1)), "0.000001");
    }

    #[test]
    fn a_position_counts_lines_and_characters() {
        assert_eq!(end_of(""), Pos { line: 1, column: 1 });
        assert_eq!(end_of("ab\ncé"), Pos { line: 2, column: 3 });
    }
}
