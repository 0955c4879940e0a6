//! The queue's entries: a state waiting to be expanded, and the operations
//! its expansion may leave out because they can only lead back to states
//! already visited.

use super::successors;
use crate::model::operation::Operation;
use crate::model::packing::{PACKED_BITS, PACKED_ORIENTATION};

/// Calls `found(index, successor)` for the states one operation away from
/// the queued state `entry`, in the order of [`Operation::ALL`] (`index`
/// is the operation's place there), as the engine makes them.
///
/// The operations `entry` names are left out because they can only give
/// states already visited, so leaving them out changes no answer and no
/// count:
///
/// * after a stot move, the move back. A legal stot move makes nothing
///   fall (BOX.md §5: nothing rests on the stot, and the cell it leaves
///   stays empty), so moving back is legal and gives the parent again.
/// * after a turn in which nothing fell, every turn. Where a turn ends
///   depends only on the cells and the orientation turned to, and the
///   cells are the parent's: the parent's own three turns, already looked
///   up, reach every other orientation, and turning back gives the parent.
#[inline]
pub(super) fn for_each_successor(entry: u64, found: impl FnMut(usize, u64)) {
    let skip = (entry >> SKIP_SHIFT) as u8;
    successors::for_each(entry & PACKED_BITS, skip, found);
}

/// What the expansion of `word`, reached from `parent` (a queue entry) by
/// the operation at `op_index`, may leave out (see [`for_each_successor`]).
#[inline]
pub(super) fn skip_after(word: u64, parent: u64, op_index: usize) -> u8 {
    if op_index >= TURNS {
        MOVE_BACK[op_index]
    } else if (word ^ parent) & PACKED_BITS & !ORIENTATION_FIELD == 0 {
        // Only the orientation changed: nothing fell.
        ALL_TURNS
    } else {
        0
    }
}

/// The turns come first in [`Operation::ALL`], then the stot moves.
const TURNS: usize = 3;

/// The bits of the turns in a skip mask.
const ALL_TURNS: u8 = (1 << TURNS) - 1;

/// The orientation's bits in a packed state.
const ORIENTATION_FIELD: u64 = 3 << PACKED_ORIENTATION;

/// For each operation of [`Operation::ALL`] that is a stot move, the skip
/// mask bit of the move that undoes it; 0 for a turn.
const MOVE_BACK: [u8; 7] = {
    let mut table = [0; 7];
    let mut index = 0;
    while index < Operation::ALL.len() {
        if let Operation::StotMove(direction) = Operation::ALL[index] {
            let mut back = 0;
            while back < Operation::ALL.len() {
                if let Operation::StotMove(other) = Operation::ALL[back] {
                    if other as u8 == direction.opposite() as u8 {
                        table[index] = 1 << back;
                    }
                }
                back += 1;
            }
        }
        index += 1;
    }
    table
};

/// Where a queue entry keeps its skip mask, above the packed state's 46
/// bits.
const SKIP_SHIFT: u32 = 56;

/// The queue's form of a new state: its packed word, and the operations
/// its expansion leaves out (one bit per index in [`Operation::ALL`]).
#[inline]
pub(super) fn entry(word: u64, skip: u8) -> u64 {
    debug_assert!(word & !PACKED_BITS == 0, "a packed state has 46 bits");
    word | (skip as u64) << SKIP_SHIFT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stot_move_is_undone_by_the_opposite_one() {
        let chars: Vec<(char, char)> = MOVE_BACK
            .iter()
            .enumerate()
            .filter(|&(_, &back)| back != 0)
            .map(|(index, &back)| {
                (
                    Operation::ALL[index].to_char(),
                    Operation::ALL[back.trailing_zeros() as usize].to_char(),
                )
            })
            .collect();
        assert_eq!(chars, [('<', '>'), ('>', '<'), ('^', 'v'), ('v', '^')]);
        let turns: String = Operation::ALL[..TURNS]
            .iter()
            .map(|op| op.to_char())
            .collect();
        assert_eq!(turns, "+-|");
    }
}
