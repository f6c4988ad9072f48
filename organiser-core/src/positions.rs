//! Manual 1-based order (task lists; a home's open tasks): putting one item
//! at a rank, clamped to the ends, renumbers the others 1..n around it.

/// Where an item goes among `others` items, and where they go around it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placement {
    slot: usize,
}

impl Placement {
    /// The item at 1-based `rank` (clamped to 1..=others + 1).
    pub(crate) fn at(rank: i64, others: usize) -> Placement {
        let slot = usize::try_from(rank.clamp(1, others as i64 + 1) - 1).unwrap_or(0);
        Placement { slot }
    }

    /// The placed item's position.
    pub(crate) fn position(self) -> i64 {
        self.slot as i64 + 1
    }

    /// The position of the other item at index `i` (in their old order).
    pub(crate) fn of_other(self, i: usize) -> i64 {
        (if i < self.slot { i + 1 } else { i + 2 }) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rank_is_clamped_and_the_others_close_around_it() {
        let cases = [
            (1, 3, 1, [2, 3, 4]),
            (2, 3, 2, [1, 3, 4]),
            (9, 3, 4, [1, 2, 3]),
            (-5, 3, 1, [2, 3, 4]),
        ];
        for (rank, others, own, theirs) in cases {
            let p = Placement::at(rank, others);
            assert_eq!(p.position(), own, "{rank}");
            assert_eq!(
                [p.of_other(0), p.of_other(1), p.of_other(2)],
                theirs,
                "{rank}"
            );
        }
    }
}
