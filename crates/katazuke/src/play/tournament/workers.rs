//! The matches of a run played on worker threads, handed out one at a
//! time by the calling thread, which takes every result in.
//!
//! Handing out from one place is what lets a sequential test stop on
//! time: under a window, a match starts only while it is within
//! `window` places of the first match not yet ended, so a worker that
//! stalls on one match (a slow program, a loaded machine) cannot let the
//! others run far ahead of what the test can read. Without that bound,
//! the matches played past the test's decision grew with the stall.

use std::sync::mpsc::{self, Sender};
use std::thread;

use super::Pairing;

/// Whether a run has played enough.
pub(super) enum Enough {
    No,
    Yes,
}

/// What a worker says to the dispatching thread.
enum Report<T, E> {
    /// The match at `position` of the pending list ended with `result`.
    Ended {
        worker: usize,
        position: usize,
        result: Result<T, E>,
    },
    /// The worker panicked; its match has no result.
    Gone,
}

/// Says [`Report::Gone`] when a worker unwinds, so that the dispatcher
/// does not wait for it (the scope re-raises the panic after).
struct GoneOnPanic<T, E>(Sender<Report<T, E>>);

impl<T, E> Drop for GoneOnPanic<T, E> {
    fn drop(&mut self) {
        if thread::panicking() {
            let _ = self.0.send(Report::Gone);
        }
    }
}

/// Plays `pending` with `play` on `jobs` threads, handing each result to
/// `done` on this thread in the order they end. A match starts only while
/// it is fewer than `window` places past the first unended one, when
/// there is a window. When `done` answers that it has enough, no new
/// match starts. The first error, a match's or `done`'s, stops new
/// matches from starting and is returned once the ones in flight ended.
pub(super) fn play_all<T: Send, E: Send>(
    pending: &[Pairing],
    jobs: usize,
    window: Option<usize>,
    play: &(dyn Fn(&Pairing) -> Result<T, E> + Sync),
    done: &mut dyn FnMut(T) -> Result<Enough, E>,
) -> Result<(), E> {
    let workers = jobs.clamp(1, pending.len().max(1));
    thread::scope(|scope| {
        let (reports, received) = mpsc::channel::<Report<T, E>>();
        let mut hand_out: Vec<Sender<usize>> = Vec::with_capacity(workers);
        for worker in 0..workers {
            let (give, take) = mpsc::channel::<usize>();
            hand_out.push(give);
            let guard = GoneOnPanic(reports.clone());
            scope.spawn(move || {
                for position in take {
                    let result = play(&pending[position]);
                    let report = Report::Ended {
                        worker,
                        position,
                        result,
                    };
                    if guard.0.send(report).is_err() {
                        break;
                    }
                }
            });
        }
        drop(reports);
        let mut idle: Vec<usize> = (0..workers).rev().collect();
        let mut ended = vec![false; pending.len()];
        let (mut next, mut first_unended, mut in_flight) = (0, 0, 0);
        let mut stopping = false;
        let mut first_error = None;
        loop {
            while !stopping
                && next < pending.len()
                && window.is_none_or(|window| next < first_unended + window)
            {
                let Some(worker) = idle.pop() else { break };
                // A worker that cannot take work has gone; it is not idle.
                if hand_out[worker].send(next).is_ok() {
                    next += 1;
                    in_flight += 1;
                }
            }
            if in_flight == 0 {
                break;
            }
            let Ok(report) = received.recv() else { break };
            in_flight -= 1;
            let Report::Ended {
                worker,
                position,
                result,
            } = report
            else {
                continue;
            };
            idle.push(worker);
            ended[position] = true;
            while ended.get(first_unended) == Some(&true) {
                first_unended += 1;
            }
            match result.and_then(&mut *done) {
                Ok(Enough::No) => {}
                Ok(Enough::Yes) => stopping = true,
                Err(error) => {
                    stopping = true;
                    first_error.get_or_insert(error);
                }
            }
        }
        // Closing the hand-out channels ends the workers.
        drop(hand_out);
        first_error.map_or(Ok(()), Err)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn pairings(count: usize) -> Vec<Pairing> {
        (0..count)
            .map(|index| Pairing {
                index,
                field: 0,
                a: 0,
                b: 1,
            })
            .collect()
    }

    #[test]
    fn a_stalled_match_holds_the_others_within_the_window() {
        let pending = pairings(40);
        let started = AtomicUsize::new(0);
        let mut seen = Vec::new();
        // Match 0 stalls until the others could have run far ahead.
        let play = |pairing: &Pairing| -> Result<usize, ()> {
            started.fetch_add(1, Ordering::SeqCst);
            if pairing.index == 0 {
                thread::sleep(Duration::from_millis(200));
            }
            Ok(pairing.index)
        };
        play_all(&pending, 3, Some(5), &play, &mut |index| {
            seen.push(index);
            Ok(if index == 0 { Enough::Yes } else { Enough::No })
        })
        .expect("no error");
        // Matches 1 to 4 may run beside the stalled one; none past them.
        assert_eq!(seen.last(), Some(&0));
        assert_eq!(started.load(Ordering::SeqCst), 5, "{seen:?}");
    }

    #[test]
    fn without_a_window_every_match_is_played_once() {
        let pending = pairings(50);
        let mut seen = Vec::new();
        let play = |pairing: &Pairing| -> Result<usize, ()> { Ok(pairing.index) };
        play_all(&pending, 4, None, &play, &mut |index| {
            seen.push(index);
            Ok(Enough::No)
        })
        .expect("no error");
        seen.sort_unstable();
        assert_eq!(seen, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn the_first_error_is_returned_and_stops_new_matches() {
        let pending = pairings(30);
        let play = |pairing: &Pairing| -> Result<usize, usize> {
            if pairing.index == 2 {
                Err(2)
            } else {
                Ok(pairing.index)
            }
        };
        let mut seen = 0;
        let error = play_all(&pending, 1, None, &play, &mut |_| {
            seen += 1;
            Ok(Enough::No)
        });
        assert_eq!(error, Err(2));
        assert_eq!(seen, 2);
    }
}
