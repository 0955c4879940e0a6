//! The ways a frame's changed rectangle can be written over the picture
//! before, as gifsicle tries them: as it is, with every unchanged pixel
//! transparent, or with only the unchanged stretches of more than one
//! colour transparent. Which is smallest depends on the runs each makes,
//! so the GIF writer compresses them in turn, most likely first, gives up
//! on one that falls behind the smallest so far, and keeps the smallest.

/// One way to write a changed rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Patch {
    /// Every pixel as it is now.
    Opaque,
    /// Every unchanged pixel transparent: long runs of the transparent
    /// index where little changed.
    UnchangedClear,
    /// An unchanged stretch (along the rows, read as one line) transparent
    /// only where it spans two colours or more: a stretch of one colour
    /// left as it is joins the runs of that colour around it.
    MixedStretchesClear,
}

impl Patch {
    /// Its buffer's place in [`write_patches`], and its rank when two
    /// patches break their runs equally often.
    pub(crate) fn slot(self) -> usize {
        match self {
            Patch::UnchangedClear => 0,
            Patch::MixedStretchesClear => 1,
            Patch::Opaque => 2,
        }
    }
}

/// Writes the patches of the rectangle whose rows, now and before, `rows`
/// gives, each into the buffer of its [`Patch::slot`]; `clear` is
/// the transparent index (unused by the changed pixels), without which
/// only `Opaque` is written. Returns the patches worth compressing:
/// `UnchangedClear`; `MixedStretchesClear` unless it came out the same as
/// `UnchangedClear` (no unchanged stretch of one colour) or nearly
/// `Opaque`; `Opaque` unless it is nearly `UnchangedClear`.
pub(crate) fn write_patches<'a>(
    rows: impl Iterator<Item = (&'a [u8], &'a [u8])> + Clone,
    clear: Option<u8>,
    out: &mut [Vec<u8>; 3],
) -> Vec<Patch> {
    let [unchanged_clear, mixed, opaque] = out;
    opaque.clear();
    for (now, _) in rows.clone() {
        opaque.extend_from_slice(now);
    }
    let Some(clear) = clear else {
        return vec![Patch::Opaque];
    };
    let rows_again = rows.clone();
    unchanged_clear.clear();
    for (now, before) in rows {
        clear_unchanged(now, before, clear, unchanged_clear);
    }
    mixed.clear();
    mixed.resize(opaque.len(), 0);
    let stretches = clear_mixed_stretches(rows_again, clear, mixed);
    // Each is left out where it is nearly another one, and not worth
    // compressing apart: the mixed stretches' patch where under a
    // sixteenth of the unchanged pixels lie in stretches of two colours (it
    // is then nearly the rectangle as it is), and the rectangle as it is
    // where under a sixteenth of its pixels changed. Neither lost a
    // measurable byte on smooth runs and replays, and they saved
    // compressing half the one and a third of the other.
    let unchanged = stretches.kept + stretches.cleared;
    let mut worth = vec![Patch::UnchangedClear];
    if stretches.kept > 0 && stretches.cleared * 16 >= unchanged {
        worth.push(Patch::MixedStretchesClear);
    }
    if (opaque.len() - unchanged) * 16 >= opaque.len() {
        worth.push(Patch::Opaque);
    }
    worth
}

/// Each byte of a word: 0x01 in every byte.
const ONES: u64 = u64::from_ne_bytes([1; 8]);
/// The high bit of every byte.
const HIGHS: u64 = 0x80 * ONES;

/// Eight indices as one word, the first in the lowest byte.
fn word(eight: &[u8; 8]) -> u64 {
    u64::from_le_bytes(*eight)
}

/// 0xFF in each byte of `x` that is not zero, 0x00 in each that is: exact
/// (no carry crosses a byte, as `x & 0x7F..` + `0x7F..` cannot overflow one).
fn nonzero_bytes(x: u64) -> u64 {
    let high = (((x & !HIGHS) + !HIGHS) | x) & HIGHS;
    (high >> 7) * 0xFF
}

/// What is known of the unchanged stretch being read.
#[derive(Clone, Copy)]
enum Stretch {
    /// The last pixel changed.
    None,
    /// Unchanged pixels of one colour since `start`, written as they are.
    OneColour { start: usize, colour: u8 },
    /// Unchanged pixels of two colours or more: all transparent.
    Mixed,
}

/// How the unchanged pixels of a rectangle fall into stretches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stretches {
    /// Pixels of stretches of one colour, left as they are.
    pub(crate) kept: usize,
    /// Pixels of stretches of two colours or more, made transparent.
    pub(crate) cleared: usize,
}

/// [`Patch::MixedStretchesClear`] into `out`, which the caller sized to
/// the rectangle, with how its unchanged pixels fell. Eight pixels at a
/// time where all eight changed, or none did in a stretch of one colour or
/// a mixed one: most of a frame.
fn clear_mixed_stretches<'a>(
    rows: impl Iterator<Item = (&'a [u8], &'a [u8])>,
    clear: u8,
    out: &mut [u8],
) -> Stretches {
    let clear_word = (u64::from(clear) * ONES).to_le_bytes();
    let mut writer = StretchWriter {
        out,
        at: 0,
        stretch: Stretch::None,
        counts: Stretches::default(),
        clear,
    };
    for (now, before) in rows {
        let (now_words, now_rest) = now.as_chunks::<8>();
        let (before_words, _) = before.as_chunks::<8>();
        for (now_eight, before_eight) in now_words.iter().zip(before_words) {
            let (now, before) = (word(now_eight), word(before_eight));
            let at = writer.at;
            if now == before {
                match writer.stretch {
                    Stretch::Mixed => {
                        writer.out[at..at + 8].copy_from_slice(&clear_word);
                        writer.at += 8;
                        writer.counts.cleared += 8;
                        continue;
                    }
                    Stretch::OneColour { colour, .. } if now == u64::from(colour) * ONES => {
                        writer.out[at..at + 8].copy_from_slice(now_eight);
                        writer.at += 8;
                        continue;
                    }
                    _ => {}
                }
            } else if nonzero_bytes(now ^ before) == u64::MAX {
                writer.end_stretch();
                writer.out[at..at + 8].copy_from_slice(now_eight);
                writer.at += 8;
                continue;
            }
            for (&index, &was) in now_eight.iter().zip(before_eight) {
                writer.step(index, was);
            }
        }
        let done = now_words.len() * 8;
        for (&index, &was) in now_rest.iter().zip(&before[done..]) {
            writer.step(index, was);
        }
    }
    writer.end_stretch();
    writer.counts
}

/// The state of [`clear_mixed_stretches`].
struct StretchWriter<'o> {
    out: &'o mut [u8],
    /// Pixels written.
    at: usize,
    stretch: Stretch,
    counts: Stretches,
    clear: u8,
}

impl StretchWriter<'_> {
    /// A changed pixel, or the end: a stretch of one colour ends kept.
    fn end_stretch(&mut self) {
        if let Stretch::OneColour { start, .. } = self.stretch {
            self.counts.kept += self.at - start;
        }
        self.stretch = Stretch::None;
    }

    /// One pixel: `index` now, `was` before. Inlined: it runs for every
    /// pixel of the words that are neither all changed nor all unchanged.
    #[inline(always)]
    fn step(&mut self, index: u8, was: u8) {
        if index != was {
            self.end_stretch();
            self.out[self.at] = index;
            self.at += 1;
            return;
        }
        let at = self.at;
        self.at += 1;
        self.stretch = match self.stretch {
            Stretch::None => {
                self.out[at] = index;
                Stretch::OneColour {
                    start: at,
                    colour: index,
                }
            }
            Stretch::OneColour { colour, .. } if colour == index => {
                self.out[at] = index;
                self.stretch
            }
            Stretch::OneColour { start, .. } => {
                self.out[start..=at].fill(self.clear);
                self.counts.cleared += at + 1 - start;
                Stretch::Mixed
            }
            Stretch::Mixed => {
                self.out[at] = self.clear;
                self.counts.cleared += 1;
                Stretch::Mixed
            }
        };
    }
}

/// Marks in `used` the indices of `now` that differ from `before`,
/// skipping eight unchanged pixels at a time.
pub(crate) fn mark_changed(now: &[u8], before: &[u8], used: &mut [bool; 256]) {
    let (now_words, now_rest) = now.as_chunks::<8>();
    let (before_words, _) = before.as_chunks::<8>();
    for (now, before) in now_words.iter().zip(before_words) {
        if now != before {
            for (&index, &was) in now.iter().zip(before) {
                if index != was {
                    used[usize::from(index)] = true;
                }
            }
        }
    }
    let done = now_words.len() * 8;
    for (&index, &was) in now_rest.iter().zip(&before[done..]) {
        if index != was {
            used[usize::from(index)] = true;
        }
    }
}

/// `now` with every index equal to the one in `before` replaced by
/// `clear`, appended to `out`, eight at a time.
fn clear_unchanged(now: &[u8], before: &[u8], clear: u8, out: &mut Vec<u8>) {
    let clear_word = u64::from(clear) * ONES;
    let (now_words, now_rest) = now.as_chunks::<8>();
    let (before_words, _) = before.as_chunks::<8>();
    for (now, before) in now_words.iter().zip(before_words) {
        let (now, before) = (word(now), word(before));
        let changed = nonzero_bytes(now ^ before);
        out.extend_from_slice(&((now & changed) | (clear_word & !changed)).to_le_bytes());
    }
    let done = now_words.len() * 8;
    out.extend(
        now_rest
            .iter()
            .zip(&before[done..])
            .map(|(&now, &before)| if now == before { clear } else { now }),
    );
}

/// How often the next index differs from the one before, along every
/// fourth row of a patch `width` indices wide: runs are what LZW
/// compresses, so this tells which patch is likely smallest, and one that
/// is sure to lose. A sample is enough for that, and a quarter of the time.
pub(crate) fn breaks(indices: &[u8], width: usize) -> usize {
    indices
        .chunks(width.max(1))
        .step_by(4)
        .map(|row| {
            row.iter()
                .zip(&row[1..])
                .map(|(a, b)| u32::from(a != b))
                .sum::<u32>() as usize
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(patch: Patch, now: &[u8], before: &[u8], width: usize) -> Vec<u8> {
        let rows = now.chunks(width).zip(before.chunks(width));
        let mut out: [Vec<u8>; 3] = Default::default();
        let patches = write_patches(rows, Some(9), &mut out);
        if patch == Patch::MixedStretchesClear && !patches.contains(&patch) {
            // Left out here only when the same as `UnchangedClear`.
            return out[Patch::UnchangedClear.slot()].clone();
        }
        out[patch.slot()].clone()
    }

    #[test]
    fn each_patch_clears_what_it_says() {
        // Changed: 0, 3 and 6. Unchanged: a stretch of one colour (1, 2)
        // and one of two colours (4, 5).
        let before = [0, 1, 1, 0, 2, 3, 0];
        let now = [5, 1, 1, 6, 2, 3, 7];
        assert_eq!(written(Patch::Opaque, &now, &before, 7), now);
        assert_eq!(
            written(Patch::UnchangedClear, &now, &before, 7),
            [5, 9, 9, 6, 9, 9, 7]
        );
        assert_eq!(
            written(Patch::MixedStretchesClear, &now, &before, 7),
            [5, 1, 1, 6, 9, 9, 7]
        );
        // A stretch runs on from one row to the next.
        assert_eq!(
            written(Patch::MixedStretchesClear, &now, &before, 2),
            [5, 1, 1, 6, 9, 9, 7]
        );
        // Without a transparent index, only the rectangle as it is.
        let mut out: [Vec<u8>; 3] = Default::default();
        let rows = now.chunks(7).zip(before.chunks(7));
        assert_eq!(write_patches(rows, None, &mut out), [Patch::Opaque]);
        let before = [0, 1, 1, 2, 0];
        let now = [5, 1, 1, 2, 6];
        assert_eq!(
            written(Patch::MixedStretchesClear, &now, &before, 2),
            [5, 9, 9, 9, 6]
        );
        let rows = now.chunks(2).zip(before.chunks(2));
        assert_eq!(
            write_patches(rows, Some(9), &mut out),
            [Patch::UnchangedClear, Patch::Opaque]
        );
    }

    #[test]
    fn word_at_a_time_scans_agree_with_byte_at_a_time_ones() {
        let mut seed = 99u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2_000 {
            let len = (random() % 60) as usize;
            // Few distinct values, 0x80 and 0xFF among them, so that bytes
            // with their high bit set meet ones without.
            let values = [0u8, 1, 0x7F, 0x80, 0xFF];
            // Mostly one value, so that runs and unchanged words occur.
            let mut pick = || values[(random() % 9).saturating_sub(4) as usize];
            let now: Vec<u8> = (0..len).map(|_| pick()).collect();
            let before: Vec<u8> = (0..len).map(|_| pick()).collect();
            // Stretches byte at a time, against words in rows of 13 (a
            // stretch runs on across rows).
            let mut reference = now.clone();
            let mut counts = Stretches::default();
            let mut start = 0;
            while start < len {
                if now[start] != before[start] {
                    start += 1;
                    continue;
                }
                let end = (start..len).find(|&i| now[i] != before[i]).unwrap_or(len);
                if now[start..end].iter().all(|&i| i == now[start]) {
                    counts.kept += end - start;
                } else {
                    reference[start..end].fill(9);
                    counts.cleared += end - start;
                }
                start = end;
            }
            let mut out = vec![0; len];
            let rows = now.chunks(13).zip(before.chunks(13));
            assert_eq!(clear_mixed_stretches(rows, 9, &mut out), counts);
            assert_eq!(out, reference, "{now:?} {before:?}");
            let mut used = [false; 256];
            mark_changed(&now, &before, &mut used);
            for index in 0..=255u8 {
                let changed = now.iter().zip(&before).any(|(&n, &b)| n == index && n != b);
                assert_eq!(used[usize::from(index)], changed);
            }
            let mut out = Vec::new();
            clear_unchanged(&now, &before, 9, &mut out);
            let expected: Vec<u8> = now
                .iter()
                .zip(&before)
                .map(|(&n, &b)| if n == b { 9 } else { n })
                .collect();
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn breaks_count_changes_of_index() {
        assert_eq!(breaks(&[], 3), 0);
        assert_eq!(breaks(&[1, 1, 2, 2, 1], 5), 2);
        // Rows 0 and 4 of six, two indices wide.
        assert_eq!(breaks(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 1, 2], 2), 1);
    }
}
