//! A size budget: an animation drawn in ever smaller ways until one fits,
//! each given up as soon as its writer passes the budget (a writer that
//! writes everything at its end is measured only then).

use std::io::{self, Write};

/// Why no drawing fitted the budget.
#[derive(Debug)]
pub enum Unfitted<E> {
    /// Every drawing tried came out larger than the budget.
    TooLarge,
    /// Writing failed for another reason.
    Failed(E),
}

/// Writes with each of `drawings` in turn (largest first) through `write`
/// into memory, and returns the first that fits in `budget` bytes with
/// what `write` returned and the bytes. A drawing is given up as soon as its
/// writer writes past the budget: a streaming one (the GIF) early, so a far
/// too large animation costs little.
pub fn first_that_fits<D, T, E>(
    budget: u64,
    drawings: impl IntoIterator<Item = D>,
    mut write: impl FnMut(&D, &mut dyn Write) -> Result<T, E>,
) -> Result<(D, T, Vec<u8>), Unfitted<E>> {
    for drawing in drawings {
        let mut capped = Capped {
            bytes: Vec::new(),
            budget,
            over: false,
        };
        match write(&drawing, &mut capped) {
            Ok(written) => return Ok((drawing, written, capped.bytes)),
            Err(_) if capped.over => continue,
            Err(error) => return Err(Unfitted::Failed(error)),
        }
    }
    Err(Unfitted::TooLarge)
}

/// A writer into memory that refuses to grow past a budget.
struct Capped {
    bytes: Vec<u8>,
    budget: u64,
    over: bool,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if (self.bytes.len() + buf.len()) as u64 > self.budget {
            self.over = true;
            return Err(io::Error::other("over the size budget"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_drawing_that_fits_is_kept_and_larger_ones_are_cut_short() {
        let mut tried = Vec::new();
        let fitted = first_that_fits(100, [300usize, 150, 80, 10], |&size, out| {
            tried.push(size);
            for _ in 0..size {
                out.write_all(b"x")?;
            }
            Ok::<_, io::Error>(size * 2)
        });
        let Ok((chosen, written, bytes)) = fitted else {
            panic!("80 bytes fit in 100");
        };
        assert_eq!((chosen, written, bytes.len()), (80, 160, 80));
        assert_eq!(tried, [300, 150, 80]);
        let none = first_that_fits(10, [300usize, 150], |&size, out| {
            out.write_all(&vec![0; size])?;
            Ok::<_, io::Error>(())
        });
        assert!(matches!(none, Err(Unfitted::TooLarge)));
        let failed = first_that_fits(10, [1usize], |_, _| -> Result<(), &str> {
            Err("disk on fire")
        });
        assert!(matches!(failed, Err(Unfitted::Failed(_))));
    }
}
