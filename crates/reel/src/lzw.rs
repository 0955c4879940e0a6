//! GIF's LZW compression, byte for byte what the `gif` crate writes, only
//! faster for our few-colour frames.
//!
//! Compressing was the largest cost of a GIF (over a third of `batch`'s
//! time): the `gif` crate's encoder (weezl) keeps a dictionary built for any
//! of 256 symbols. Frames here use a handful of palette indices, so a dense
//! table of every code's successor per symbol fits in cache and finds each
//! next code with one load. The output must not change, so every choice
//! below (minimum code size, when codes grow, when the dictionary is
//! cleared, the end code) copies the `gif` crate's, and a test compares the
//! two on many inputs.

/// GIF codes are at most 12 bits.
const MAX_CODE_SIZE: u8 = 12;
const MAX_CODES: usize = 1 << MAX_CODE_SIZE;

/// The `gif` crate keeps up to this many successors of a code in a short
/// list, then moves them to a table; the string being added at that moment
/// gets a code but is not entered, so it is added again when next seen. Only
/// palettes of more than 16 colours can meet this, and the output follows it.
const SHORT_LIST: u8 = 16;

/// Bits of a table entry that hold the code; the bits above hold the
/// number of the dictionary the entry belongs to.
const CODE_BITS: u32 = MAX_CODE_SIZE as u32;
const CODE_MASK: u32 = (1 << CODE_BITS) - 1;
/// The most dictionaries numbered before the table is cleared and the
/// numbering starts again.
const EPOCHS: u32 = 1 << (32 - CODE_BITS);

/// Compresses image data; reusing one keeps its table allocated.
#[derive(Default)]
pub(crate) struct LzwEncoder {
    /// `successor[code * alphabet + symbol]`: the code of the string `code`
    /// followed by `symbol`, stamped with the number of the dictionary it
    /// was entered in. An entry of an earlier dictionary counts as none, so
    /// a new dictionary (every frame, and every reset of a full one) costs
    /// no clearing of the table: with 256 symbols it is 4 MB, and clearing
    /// it was a third of the time of a 165-colour animation.
    successor: Vec<u32>,
    /// How many successors each code was given, up to `SHORT_LIST + 1`.
    successors: Vec<u8>,
    /// The current dictionary's number, from 1.
    epoch: u32,
    /// `runs[symbol * MAX_CODES + n]`: the code of `symbol` repeated `n`
    /// times, for `n` up to `longest_run[symbol]`. A run of one index (a
    /// transparent area, a cell's white) is most of a frame, and walking
    /// it one successor at a time was most of the time compressing it.
    runs: Vec<u16>,
    /// The longest run of each symbol the current dictionary holds.
    longest_run: Vec<u16>,
}

/// Codes packed least significant bit first, as GIF wants them.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    pending: u64,
    count: u8,
    code_size: u8,
}

impl Bits<'_> {
    #[inline]
    fn push(&mut self, code: u16) {
        self.pending |= u64::from(code) << self.count;
        self.count += self.code_size;
        while self.count >= 8 {
            self.out.push(self.pending as u8);
            self.pending >>= 8;
            self.count -= 8;
        }
    }

    fn finish(self) {
        if self.count > 0 {
            self.out.push(self.pending as u8);
        }
    }
}

impl LzwEncoder {
    /// Appends to `out` the minimum code size byte and the LZW data of
    /// `indices`, exactly as `gif::Frame::make_lzw_pre_encoded` makes them.
    pub(crate) fn encode(&mut self, indices: &[u8], out: &mut Vec<u8>) {
        let min_code_size = min_code_size(indices);
        out.push(min_code_size);
        let alphabet = 1usize << min_code_size;
        if self.successor.len() < MAX_CODES * alphabet {
            self.successor.resize(MAX_CODES * alphabet, 0);
            self.successors.resize(MAX_CODES, 0);
            self.runs.resize(MAX_CODES * alphabet + 1, 0);
            self.longest_run.resize(alphabet, 0);
        }
        let clear = alphabet as u16;
        let end = clear + 1;
        let first_free = end + 1;
        let mut bits = Bits {
            out,
            pending: 0,
            count: 0,
            code_size: min_code_size + 1,
        };
        bits.push(clear);
        let Some(&first) = indices.first() else {
            bits.push(end);
            bits.finish();
            return;
        };
        let mut epoch = self.new_dictionary(alphabet);
        let mut current = u16::from(first);
        // While the string `current` is one symbol repeated, which and how
        // many times.
        let mut run = Some((first, 1usize));
        // The number of codes in use, the `gif` crate's dictionary length.
        let mut next = first_free as usize;
        let mut i = 1;
        while i < indices.len() {
            let symbol = indices[i];
            let slot = usize::from(current) * alphabet + usize::from(symbol);
            match run {
                Some((repeated, length)) if repeated == symbol => {
                    // Jump along the run as far as the dictionary knows it.
                    let base = usize::from(symbol) * MAX_CODES;
                    let longest = usize::from(self.longest_run[usize::from(symbol)]);
                    let ahead = indices[i..]
                        .iter()
                        .take(longest - length + 1)
                        .take_while(|&&s| s == symbol)
                        .count();
                    let reach = (length + ahead).min(longest);
                    if reach > length {
                        current = self.runs[base + reach];
                        i += reach - length;
                        run = Some((symbol, reach));
                        continue;
                    }
                }
                _ => {
                    let found = self.successor[slot];
                    if found >> CODE_BITS == epoch {
                        current = (found & CODE_MASK) as u16;
                        run = None;
                        i += 1;
                        continue;
                    }
                }
            }
            // `current` then `symbol` is a new string. The dictionary always
            // gains a code, even as it fills up (a full one is cleared just
            // below, before any use).
            let successors = &mut self.successors[usize::from(current)];
            let entered = *successors != SHORT_LIST;
            *successors = (*successors + 1).min(SHORT_LIST + 1);
            if entered && next < MAX_CODES {
                self.successor[slot] = epoch << CODE_BITS | next as u32;
                if let Some((repeated, length)) = run {
                    if repeated == symbol {
                        let base = usize::from(symbol) * MAX_CODES;
                        self.runs[base + length + 1] = next as u16;
                        self.longest_run[usize::from(symbol)] = (length + 1) as u16;
                    }
                }
            }
            next += 1;
            bits.push(current);
            if next > 1 << bits.code_size && bits.code_size < MAX_CODE_SIZE {
                bits.code_size += 1;
            }
            if next > MAX_CODES {
                bits.push(clear);
                epoch = self.new_dictionary(alphabet);
                next = first_free as usize;
                bits.code_size = min_code_size + 1;
            }
            current = u16::from(symbol);
            run = Some((symbol, 1));
            i += 1;
        }
        bits.push(current);
        // The decoder adds an entry on reading that last code and may widen
        // its codes before it reads the end code: so does the encoder.
        if next >= 1 << bits.code_size && bits.code_size < MAX_CODE_SIZE {
            bits.code_size += 1;
        }
        bits.push(end);
        bits.finish();
    }

    /// Starts an empty dictionary: the next number, and no successors
    /// counted for any code (4,096 bytes, unlike the table).
    fn new_dictionary(&mut self, alphabet: usize) -> u32 {
        self.successors.fill(0);
        // Every symbol alone is a code of its own: a run of one.
        for symbol in 0..alphabet {
            self.runs[symbol * MAX_CODES + 1] = symbol as u16;
            self.longest_run[symbol] = 1;
        }
        self.epoch += 1;
        if self.epoch == EPOCHS {
            // Numbers would come round again: forget every entry once.
            self.successor.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }
}

/// The `gif` crate's choice: enough bits for the largest index (it stops
/// looking past 127, which already needs 8), and never fewer than 2.
fn min_code_size(indices: &[u8]) -> u8 {
    let mut largest = 0;
    for &index in indices {
        if index > largest {
            largest = index;
            if index > 127 {
                break;
            }
        }
    }
    (u32::from(largest) + 1)
        .max(4)
        .next_power_of_two()
        .trailing_zeros() as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn reference(indices: &[u8]) -> Vec<u8> {
        let mut frame = gif::Frame {
            buffer: Cow::Borrowed(indices),
            ..gif::Frame::default()
        };
        frame.make_lzw_pre_encoded();
        frame.buffer.into_owned()
    }

    fn ours(encoder: &mut LzwEncoder, indices: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encoder.encode(indices, &mut out);
        out
    }

    #[test]
    fn output_equals_the_gif_crates_byte_for_byte() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // One encoder throughout: what one call leaves must not leak into
        // the next.
        let mut encoder = LzwEncoder::default();
        let mut inputs: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![7],
            vec![3; 100_000],
            vec![255, 0, 1],
            (0..=255).collect(),
        ];
        for (len, colours, run) in [
            (10, 4, 1),
            (1_000, 8, 1),
            (5_000, 4, 1),
            (100_000, 8, 1),
            (100_000, 8, 40),
            (200_000, 3, 7),
            (50_000, 16, 3),
            (50_000, 256, 2),
            (200_000, 32, 1),
            (100_000, 256, 1),
            (3_000, 200, 1),
            // Long runs, where the encoder jumps along runs it knows, with
            // few colours and with enough for the short lists to fill.
            (300_000, 4, 900),
            (200_000, 20, 300),
            (200_000, 256, 60),
        ] {
            let mut input = Vec::with_capacity(len);
            while input.len() < len {
                let symbol = (random() % colours) as u8;
                let repeat = 1 + (random() % run) as usize;
                input.extend(std::iter::repeat_n(symbol, repeat.min(len - input.len())));
            }
            inputs.push(input);
        }
        for input in &inputs {
            assert!(
                ours(&mut encoder, input) == reference(input),
                "{} indices, largest {:?}",
                input.len(),
                input.iter().max()
            );
        }
    }

    #[test]
    fn the_dictionary_numbers_wrap_without_changing_the_output() {
        let mut encoder = LzwEncoder {
            epoch: EPOCHS - 2,
            ..LzwEncoder::default()
        };
        let input: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 13) as u8).collect();
        for _ in 0..4 {
            assert!(ours(&mut encoder, &input) == reference(&input));
        }
        assert!(encoder.epoch < 10, "the numbering started again");
    }
}
