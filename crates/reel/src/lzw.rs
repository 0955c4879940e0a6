//! GIF's LZW compression, for our few-colour frames: faster than the `gif`
//! crate's encoder and never larger.
//!
//! Compressing was the largest cost of a GIF (over a third of `batch`'s
//! time): the `gif` crate's encoder (weezl) keeps a dictionary built for any
//! of 256 symbols. Frames here use a handful of palette indices, so a dense
//! table of every code's successor per symbol fits in cache and finds each
//! next code with one load.
//!
//! Smaller, too, as gifsicle makes them: when the dictionary fills, it is
//! kept (a decoder stops adding to a full dictionary) for as long as its
//! strings stay long compared with what is left to compress, and otherwise
//! cleared, at the last short string since it filled rather than at once.
//! (gifsicle -O3 then also tries clearing as soon as it fills; on our
//! animations that saved 0.02 to 0.09 % for a sixth more time, and is not
//! done.)

/// GIF codes are at most 12 bits.
const MAX_CODE_SIZE: u8 = 12;
const MAX_CODES: usize = 1 << MAX_CODE_SIZE;

/// The average length of the strings coded lately, in 1/2^19 pixel, moving
/// 1/16 of the way to each new one: gifsicle's measure of how well a full
/// dictionary still serves, with its constants.
const AVERAGE_SCALE: u32 = 19;
const AVERAGE_SHIFT: u32 = 4;
/// A full dictionary is cleared when finishing the frame with it would take
/// more than about this many codes.
const CODES_LEFT_TO_CLEAR: u64 = 3000;

/// Compresses image data; reusing one keeps its table allocated.
#[derive(Default)]
pub(crate) struct LzwEncoder {
    /// `successor[code * alphabet + symbol]`: the code of the string `code`
    /// followed by `symbol`, 0 for none (no string's code is 0). Two bytes
    /// an entry: with 128 symbols the table is 1 MB, and looking in it is
    /// most of the time compressing, the less of it that misses the cache
    /// the better.
    successor: Vec<u16>,
    /// The entries of the current dictionary, to empty when it ends: at
    /// most 4,096, where clearing the whole table (4 MB with 256 symbols)
    /// was a third of the time of a 165-colour animation.
    entered: Vec<u32>,
    /// `runs[symbol * MAX_CODES + n]`: the code of `symbol` repeated `n`
    /// times, for `n` up to `longest_run[symbol]`. A run of one index (a
    /// transparent area, a cell's white) is most of a frame, and walking
    /// it one successor at a time was most of the time compressing it.
    runs: Vec<u16>,
    /// The longest run of each symbol the current dictionary holds.
    longest_run: Vec<u16>,
}

/// Indices read between two looks at how many bytes a compression wrote:
/// its pace, which one of the same indices in another patch must keep.
pub(crate) const PACE_STEP: usize = 2048;

/// Whether a compression that has written `written` bytes by its `look`th
/// look is sure enough to lose against the `rival` pace to be abandoned:
/// when it is behind by a sixteenth and a few bytes, or past the rival's
/// whole size. An eighth of that slack (a thirty-second and 16 bytes) made
/// a 201-turn replay 0.3 % larger for no time saved.
fn fallen_behind(written: u32, rival: &[u32], look: usize) -> bool {
    let Some(&theirs) = rival.get(look) else {
        return false;
    };
    let whole = rival.last().copied().unwrap_or(u32::MAX);
    written > whole || written > theirs + theirs / 16 + 32
}

/// Codes packed least significant bit first, as GIF wants them.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    pending: u64,
    count: u8,
    code_size: u8,
}

/// Where the output was, to go back to.
#[derive(Clone, Copy)]
struct BitsMark {
    len: usize,
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

    fn mark(&self) -> BitsMark {
        BitsMark {
            len: self.out.len(),
            pending: self.pending,
            count: self.count,
            code_size: self.code_size,
        }
    }

    fn rewind(&mut self, mark: BitsMark) {
        self.out.truncate(mark.len);
        self.pending = mark.pending;
        self.count = mark.count;
        self.code_size = mark.code_size;
    }

    fn finish(self) {
        if self.count > 0 {
            self.out.push(self.pending as u8);
        }
    }
}

impl LzwEncoder {
    /// Appends to `out` the minimum code size byte and the LZW data of
    /// `indices`.
    pub(crate) fn encode(&mut self, indices: &[u8], out: &mut Vec<u8>) {
        let mut pace = Vec::new();
        self.encode_against(indices, out, &[], &mut pace);
    }

    /// [`LzwEncoder::encode`] racing another compression whose `rival`
    /// pace is known (empty for none): false, with `out` unfinished, when
    /// this one fell behind it and was abandoned. Its own pace goes into
    /// `pace`.
    pub(crate) fn encode_against(
        &mut self,
        indices: &[u8],
        out: &mut Vec<u8>,
        rival: &[u32],
        pace: &mut Vec<u32>,
    ) -> bool {
        pace.clear();
        self.encode_with(indices, out, rival, pace).is_some()
    }

    /// Compresses `indices` into `out`, its pace into `pace`; whether it
    /// ever cleared a full dictionary, or
    /// `None` when it fell behind the `rival` pace (the output is then
    /// unfinished).
    fn encode_with(
        &mut self,
        indices: &[u8],
        out: &mut Vec<u8>,
        rival: &[u32],
        pace: &mut Vec<u32>,
    ) -> Option<bool> {
        let start = out.len();
        let min_code_size = min_code_size(indices);
        out.push(min_code_size);
        let alphabet = 1usize << min_code_size;
        if self.successor.len() < MAX_CODES * alphabet {
            self.successor.resize(MAX_CODES * alphabet, 0);
            self.runs.resize(MAX_CODES * alphabet + 1, 0);
            self.longest_run.resize(alphabet, 0);
        }
        let clear = alphabet as u16;
        let end = clear + 1;
        let first_free = usize::from(end) + 1;
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
            return Some(false);
        };
        let mut cleared = false;
        self.new_dictionary(alphabet);
        let mut current = u16::from(first);
        // The length of the string `current`, and while it is one symbol
        // repeated, which.
        let mut length = 1usize;
        let mut repeated = Some(first);
        // The number of codes in use, one past the last when full.
        let mut next = first_free;
        let mut average: u64 = 1 << AVERAGE_SCALE;
        // Where to clear a full dictionary: before the first short string
        // coded since it filled.
        let mut clear_at: Option<(usize, BitsMark)> = None;
        let mut next_look = PACE_STEP;
        let mut i = 1;
        while i < indices.len() {
            let symbol = indices[i];
            match repeated {
                Some(repeated) if repeated == symbol => {
                    // Jump along the run as far as the dictionary knows it.
                    let base = usize::from(symbol) * MAX_CODES;
                    let longest = usize::from(self.longest_run[usize::from(symbol)]);
                    let look = (longest - length + 1).min(indices.len() - i);
                    let ahead = run_length(&indices[i..i + look], symbol);
                    let reach = (length + ahead).min(longest);
                    if reach > length {
                        current = self.runs[base + reach];
                        i += reach - length;
                        length = reach;
                        continue;
                    }
                }
                _ => {
                    let slot = usize::from(current) * alphabet + usize::from(symbol);
                    let found = self.successor[slot];
                    if found != 0 {
                        current = found;
                        repeated = None;
                        length += 1;
                        i += 1;
                        continue;
                    }
                }
            }
            // `current` then `symbol` is a new string: entered while the
            // dictionary has room.
            if next < MAX_CODES {
                let slot = usize::from(current) * alphabet + usize::from(symbol);
                self.successor[slot] = next as u16;
                self.entered.push(slot as u32);
                if repeated == Some(symbol) {
                    let base = usize::from(symbol) * MAX_CODES;
                    self.runs[base + length + 1] = next as u16;
                    self.longest_run[usize::from(symbol)] = (length + 1) as u16;
                }
                next += 1;
            } else {
                next = MAX_CODES + 1;
            }
            if next >= MAX_CODES - 1 {
                let left = (indices.len() - i - 1) as u64;
                let worn = left > 0
                    && (average < (36 << AVERAGE_SCALE) / u64::from(min_code_size)
                        || average * CODES_LEFT_TO_CLEAR < left << AVERAGE_SCALE);
                if (worn || length < 7) && clear_at.is_none() {
                    clear_at = Some((i - length, bits.mark()));
                } else if !worn && length > 50 {
                    clear_at = None;
                }
                if worn {
                    if let Some((at, mark)) = clear_at.take() {
                        bits.rewind(mark);
                        bits.push(clear);
                        bits.code_size = min_code_size + 1;
                        self.new_dictionary(alphabet);
                        next = first_free;
                        average = 1 << AVERAGE_SCALE;
                        cleared = true;
                        current = u16::from(indices[at]);
                        repeated = Some(indices[at]);
                        length = 1;
                        i = at + 1;
                        continue;
                    }
                }
            }
            bits.push(current);
            if i >= next_look {
                next_look += PACE_STEP;
                let written = (bits.out.len() - start) as u32;
                if fallen_behind(written, rival, pace.len()) {
                    return None;
                }
                pace.push(written);
            }
            if next > 1 << bits.code_size && bits.code_size < MAX_CODE_SIZE {
                bits.code_size += 1;
            }
            let coded = ((length as u64) << AVERAGE_SCALE) + (1 << (AVERAGE_SHIFT - 1));
            if coded < average {
                average -= (average - coded) >> AVERAGE_SHIFT;
            } else {
                average += (coded - average) >> AVERAGE_SHIFT;
            }
            current = u16::from(symbol);
            repeated = Some(symbol);
            length = 1;
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
        pace.push((out.len() - start) as u32);
        Some(cleared)
    }
    /// Starts an empty dictionary.
    fn new_dictionary(&mut self, alphabet: usize) {
        for &slot in &self.entered {
            self.successor[slot as usize] = 0;
        }
        self.entered.clear();
        // Every symbol alone is a code of its own: a run of one.
        for symbol in 0..alphabet {
            self.runs[symbol * MAX_CODES + 1] = symbol as u16;
            self.longest_run[symbol] = 1;
        }
    }
}

/// How many of `indices` from the first are `symbol`, eight at a time:
/// runs of one index are most of a frame.
fn run_length(indices: &[u8], symbol: u8) -> usize {
    let pattern = u64::from_ne_bytes([symbol; 8]);
    let (words, rest) = indices.as_chunks::<8>();
    for (n, eight) in words.iter().enumerate() {
        let differs = u64::from_le_bytes(*eight) ^ pattern;
        if differs != 0 {
            return n * 8 + differs.trailing_zeros() as usize / 8;
        }
    }
    words.len() * 8 + rest.iter().take_while(|&&s| s == symbol).count()
}

/// The `gif` crate's choice: enough bits for the largest index (it stops
/// looking past 127, which already needs 8), and never fewer than 2.
fn min_code_size(indices: &[u8]) -> u8 {
    // A block at a time with no branch inside, which compiles to wide
    // maxima: byte by byte, with the early stop inside the loop, this scan
    // was half the time of compressing.
    let mut largest = 0;
    for block in indices.chunks(1024) {
        largest = block
            .iter()
            .fold(largest, |largest, &index| largest.max(index));
        if largest > 127 {
            break;
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

    /// What the `gif` crate's encoder makes of `indices`.
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

    /// The indices a GIF decoder (the `gif` crate's) reads from `data`,
    /// framed as a one-frame GIF `indices.len()` pixels wide.
    fn decoded(data: &[u8], width: usize) -> Vec<u8> {
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
        let mut file = Vec::new();
        {
            let width = width.max(1) as u16;
            let mut encoder = gif::Encoder::new(&mut file, width, 1, &palette).unwrap();
            let frame = gif::Frame {
                width,
                height: 1,
                buffer: Cow::Borrowed(data),
                ..gif::Frame::default()
            };
            encoder.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(file.as_slice()).unwrap();
        let frame = decoder.read_next_frame().unwrap().unwrap();
        frame.buffer.to_vec()
    }

    /// Random runs of `colours` symbols, each up to `run` long.
    fn inputs() -> Vec<Vec<u8>> {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut inputs: Vec<Vec<u8>> = vec![
            vec![0],
            vec![7],
            vec![3; 60_000],
            vec![255, 0, 1],
            (0..=255).collect(),
        ];
        for (len, colours, run) in [
            (10, 4, 1),
            (1_000, 8, 1),
            (5_000, 4, 1),
            (60_000, 8, 1),
            (60_000, 8, 40),
            (65_000, 3, 7),
            (50_000, 16, 3),
            (50_000, 256, 2),
            (65_000, 32, 1),
            (65_000, 256, 1),
            (3_000, 200, 1),
            // Long runs, where the encoder jumps along runs it knows.
            (65_000, 4, 900),
            (65_000, 20, 300),
            (65_000, 256, 60),
        ] {
            let mut input = Vec::with_capacity(len);
            while input.len() < len {
                let symbol = (random() % colours) as u8;
                let repeat = 1 + (random() % run) as usize;
                input.extend(std::iter::repeat_n(symbol, repeat.min(len - input.len())));
            }
            inputs.push(input);
        }
        // Noise then a long calm, and the other way round: a full
        // dictionary kept, and one cleared late.
        let noise: Vec<u8> = (0..30_000).map(|_| (random() % 16) as u8).collect();
        inputs.push([noise.clone(), vec![5; 30_000]].concat());
        inputs.push([vec![5; 30_000], noise.clone()].concat());
        inputs.push([noise.clone(), noise[..20_000].to_vec()].concat());
        inputs
    }

    #[test]
    fn decoders_read_back_every_index_and_it_is_smaller_than_the_gif_crates() {
        // One encoder throughout: what one call leaves must not leak into
        // the next.
        let mut encoder = LzwEncoder::default();
        let (mut total, mut reference_total) = (0, 0);
        for input in &inputs() {
            let data = ours(&mut encoder, input);
            let what = format!("{} indices, largest {:?}", input.len(), input.iter().max());
            assert!(decoded(&data, input.len()) == *input, "{what}");
            // Keeping a full dictionary is a bet: on noise it can lose a
            // few bytes to clearing at once, never more than a fraction.
            let theirs = reference(input);
            assert!(
                data.len() <= theirs.len() + theirs.len() / 500,
                "{what}: {} > {}",
                data.len(),
                theirs.len()
            );
            total += data.len();
            reference_total += theirs.len();
        }
        assert!(
            total < reference_total,
            "{total} not below {reference_total}"
        );
        // Nothing at all: a clear code and the end.
        assert_eq!(ours(&mut encoder, &[]), reference(&[]));
    }

    #[test]
    fn a_full_dictionary_is_kept_when_little_is_left() {
        let mut seed = 7u64;
        let mut random = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 63) as u8
        };
        // Two of 256 colours at random: strings are long by the time the
        // dictionary fills, and little is left to compress then.
        let input: Vec<u8> = (0..45_000).map(|_| random() * 128).collect();
        let mut encoder = LzwEncoder::default();
        let (mut kept, mut kept_pace) = (Vec::new(), Vec::new());
        let cleared = encoder.encode_with(&input, &mut kept, &[], &mut kept_pace);
        assert_eq!(cleared, Some(false));
        assert!(decoded(&kept, input.len()) == input);
        // The `gif` crate clears as soon as it fills, and is larger.
        let eager = reference(&input);
        assert!(kept.len() < eager.len(), "{} {}", kept.len(), eager.len());
        // The pace: bytes by every PACE_STEP indices, then the whole.
        assert_eq!(kept_pace.len(), input.len().div_ceil(PACE_STEP));
        assert_eq!(kept_pace.last(), Some(&(kept.len() as u32)));
        assert!(kept_pace.is_sorted());
    }

    #[test]
    fn a_compression_falling_behind_its_rival_is_abandoned() {
        // Runs, then noise: compressed against the runs alone as a rival,
        // the noise falls behind at once.
        let calm = vec![1u8; 40_000];
        let mut noisy = calm.clone();
        for (i, index) in noisy.iter_mut().enumerate().skip(10_000) {
            *index = (i * 7 % 13) as u8;
        }
        let mut encoder = LzwEncoder::default();
        let (mut out, mut pace) = (Vec::new(), Vec::new());
        assert!(encoder.encode_against(&calm, &mut out, &[], &mut pace));
        let rival = pace.clone();
        let mut behind = Vec::new();
        assert!(!encoder.encode_against(&noisy, &mut behind, &rival, &mut pace));
        // Where it gave up, it had not read much past the noise's start.
        assert!(pace.len() * PACE_STEP <= 14_000, "{}", pace.len());
        // Against itself, it finishes, with the same bytes as alone.
        let mut again = Vec::new();
        assert!(encoder.encode_against(&calm, &mut again, &rival, &mut pace));
        assert_eq!(again, out);
    }

    #[test]
    fn run_lengths_are_counted_eight_at_a_time_as_one_at_a_time() {
        let mut indices = vec![5u8; 30];
        for stop in [0, 1, 7, 8, 9, 16, 23, 29] {
            indices[stop] = 6;
            for start in 0..=stop {
                assert_eq!(run_length(&indices[start..], 5), stop - start);
            }
            indices[stop] = 5;
        }
        assert_eq!(run_length(&indices, 5), 30);
        assert_eq!(run_length(&[], 5), 0);
    }

    #[test]
    fn the_minimum_code_size_fits_the_largest_index_wherever_it_is() {
        assert_eq!(min_code_size(&[]), 2);
        for (largest, size) in [
            (0, 2),
            (3, 2),
            (4, 3),
            (7, 3),
            (8, 4),
            (127, 7),
            (128, 8),
            (255, 8),
        ] {
            // The largest index alone, first, last, and past a block.
            for (len, at) in [(1, 0), (3_000, 0), (3_000, 2_999), (3_000, 1_500)] {
                let mut indices = vec![0u8; len];
                indices[at] = largest;
                assert_eq!(min_code_size(&indices), size, "{largest} at {at} of {len}");
            }
        }
    }

    #[test]
    fn one_encoder_gives_the_same_bytes_again_whatever_came_before() {
        let input: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 13) as u8).collect();
        let expected = ours(&mut LzwEncoder::default(), &input);
        let mut encoder = LzwEncoder::default();
        for other in [vec![200u8; 9_000], (0..=255).cycle().take(70_000).collect()] {
            ours(&mut encoder, &other);
            assert!(ours(&mut encoder, &input) == expected);
        }
    }
}
