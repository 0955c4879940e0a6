//! One layer's distances as the table keeps them: a byte a state where a
//! build made them, or packed as the file holds them (a few bits a state,
//! all ones for unsolvable), read where they lie, so that opening a file
//! is a read and a checksum, not a decoding of every state.

use super::build::UNSOLVABLE;

/// The distances of one layer, in the index's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Distances {
    /// Bits a state: 8 for a byte a state.
    bits: u32,
    /// The states' codes, least significant bit first; a packed layer has
    /// one spare byte at the end, so that every code is in two bytes.
    data: Vec<u8>,
    len: u64,
}

impl Distances {
    /// A byte a state, [`UNSOLVABLE`] for unsolvable.
    pub(crate) fn from_bytes(bytes: Vec<u8>) -> Distances {
        Distances {
            bits: 8,
            len: bytes.len() as u64,
            data: bytes,
        }
    }

    /// `len` codes of `bits` bits (1 to 8) in `packed`, as a file holds
    /// them; `None` if `packed` is not as long as they need.
    pub(crate) fn from_packed(bits: u32, mut packed: Vec<u8>, len: u64) -> Option<Distances> {
        if !(1..=8).contains(&bits) || packed.len() as u64 != (len * bits as u64).div_ceil(8) {
            return None;
        }
        packed.push(0);
        Some(Distances {
            bits,
            data: packed,
            len,
        })
    }

    /// How many states.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The distance of state `rank`, [`UNSOLVABLE`] for unsolvable.
    #[inline]
    pub(crate) fn get(&self, rank: u64) -> u8 {
        if self.bits == 8 {
            return self.data[rank as usize];
        }
        let bit = rank * self.bits as u64;
        let at = (bit / 8) as usize;
        let pair = u16::from_le_bytes([self.data[at], self.data[at + 1]]);
        let ones = (1u16 << self.bits) - 1;
        match (pair >> (bit % 8)) & ones {
            code if code == ones => UNSOLVABLE,
            code => code as u8,
        }
    }

    /// The distances a byte a state, for a build that goes on from them.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        (0..self.len).map(|rank| self.get(rank)).collect()
    }

    /// The byte of state `rank` of a layer kept a byte a state (the tests
    /// change one to see that it is caught).
    #[cfg(test)]
    pub(crate) fn byte_mut(&mut self, rank: usize) -> &mut u8 {
        assert_eq!(self.bits, 8);
        &mut self.data[rank]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_codes_read_back_at_every_width_and_place() {
        for bits in 1..=8u32 {
            let ones = (1u16 << bits) - 1;
            let codes: Vec<u16> = (0..100u16).map(|i| (i * 37 + 11) % (ones + 1)).collect();
            let mut packed = vec![0u8; (codes.len() * bits as usize).div_ceil(8)];
            for (i, &code) in codes.iter().enumerate() {
                for b in 0..bits as usize {
                    if code >> b & 1 == 1 {
                        let bit = i * bits as usize + b;
                        packed[bit / 8] |= 1 << (bit % 8);
                    }
                }
            }
            let distances = Distances::from_packed(bits, packed, codes.len() as u64).unwrap();
            for (i, &code) in codes.iter().enumerate() {
                let expected = if code == ones { UNSOLVABLE } else { code as u8 };
                assert_eq!(distances.get(i as u64), expected, "{bits} bits, code {i}");
            }
        }
        assert_eq!(Distances::from_packed(3, vec![0; 2], 6), None);
    }
}
