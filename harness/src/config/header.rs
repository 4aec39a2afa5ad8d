//! The keys every scenario file starts with, whatever its model.

use serde::{Deserialize, Serialize};

/// A scenario's name, description, base seed and replications: the top-level keys every model's
/// file has, read by [`parse`](super::parse) before the model's own keys.
///
/// A model's scenario holds it as a `header` field that serde skips (`#[serde(skip)]`): serde
/// cannot flatten a struct into one that denies unknown keys, so [`parse`](super::parse)
/// deserializes the header from its four keys and the model's struct from the others, each
/// denying unknown keys, and [`Header::to_toml`] writes it back first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Its name (a preset's: `kokkinos2009-gbp`, `salehi2012-calibrated`, ...).
    pub name: String,
    /// What it is, one line.
    #[serde(default)]
    pub description: String,
    /// Base seed: replication `k` draws its random numbers from
    /// [`replication_seed`](crate::des::rng::replication_seed)`(seed, k)`. A model that draws
    /// nothing keeps it all the same.
    pub seed: u64,
    /// Independent replications.
    pub replications: u32,
}

/// A document that starts with a [`Header`]: what [`parse`](super::parse) reads.
pub trait Headed {
    /// Its header.
    fn header(&self) -> &Header;
    /// Its header, to change or fill in.
    fn header_mut(&mut self) -> &mut Header;
}

impl Header {
    /// A header of one replication from `seed`, without a description: a scenario built in code
    /// (a test's, a generated one).
    pub fn single(name: &str, seed: u64) -> Self {
        Self {
            name: name.to_owned(),
            description: String::new(),
            seed,
            replications: 1,
        }
    }

    /// The keys of a header in a TOML document.
    pub const KEYS: [&'static str; 4] = ["name", "description", "seed", "replications"];

    /// The header as the first lines of a TOML document, a comment on the meaning of `seed`
    /// and `replications` beside them.
    pub fn to_toml(&self) -> String {
        let string = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let commented = |line: String, comment: &str| format!("{line:<44} # {comment}\n");
        [
            format!("name = {}\n", string(&self.name)),
            format!("description = {}\n", string(&self.description)),
            commented(
                format!("seed = {}", self.seed),
                "replication k uses seed + k",
            ),
            commented(
                format!("replications = {}", self.replications),
                "independent runs",
            ),
        ]
        .concat()
    }
}
