//! Seeded numbers: the same sequence on every machine, for the playouts of
//! the tree search, random players and random matches.

/// A xorshift64 sequence: small, seeded, the same everywhere.
#[derive(Clone, Debug)]
pub struct Seeded(u64);

impl Seeded {
    /// The sequence of `seed` (0 is moved off, as xorshift never leaves
    /// it).
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed.max(1))
    }

    /// The next number.
    pub fn next_number(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_number() % n
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}
