//! Shards: a long job (a match, self-play) split into parts that a batch
//! scheduler (GNU parallel, Slurm, Kubernetes jobs) runs anywhere. A part
//! is a function of its number alone, so the parts add up to the whole
//! job whichever machines ran them, and a lost one is run again.

/// The games whose number is `index - 1` modulo `count` (`index` from 1,
/// as `--shard 2/4` writes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// A `--shard` that is not `K/N` with 1 <= K <= N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard '{}' (K/N with 1 <= K <= N)", crate::rules::printable(.0))]
pub struct BadShard(pub String);

impl Shard {
    /// All the games.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game number `game` (from 0) is this shard's.
    pub fn has(&self, game: u64) -> bool {
        game % self.count == self.index - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_split() {
        assert_eq!(Shard::parse("2/5").unwrap(), Shard { index: 2, count: 5 });
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let s = Shard::parse("2/3").unwrap();
        assert_eq!((0..9).filter(|&g| s.has(g)).collect::<Vec<_>>(), [1, 4, 7]);
    }
}
