//! How long players take to answer: the mean and the worst time from a
//! `go` to its answer, measured on the wall clock whatever clock the match
//! is played under (under the virtual clock it is the thinking time, which
//! is not charged but is what a run waits for). Times are measurements,
//! not results: they differ from run to run, so they are reported beside
//! the standings and never written to a results file, which stays the same
//! on every run of a virtual-clock tournament.

use std::time::{Duration, Instant};

use super::player::{Answer, Go, Player};
use super::protocol::Message;

/// Answer times summed up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Latency {
    /// Answers timed.
    pub answers: u32,
    /// Their times added up, µs.
    pub total_micros: u64,
    /// The longest, µs.
    pub worst_micros: u64,
}

impl Latency {
    /// Counts one answer that took `time`.
    pub fn add(&mut self, time: Duration) {
        let micros = u64::try_from(time.as_micros()).unwrap_or(u64::MAX);
        self.answers += 1;
        self.total_micros = self.total_micros.saturating_add(micros);
        self.worst_micros = self.worst_micros.max(micros);
    }

    /// Both sets of answers together.
    pub fn merged(self, other: Latency) -> Latency {
        Latency {
            answers: self.answers + other.answers,
            total_micros: self.total_micros.saturating_add(other.total_micros),
            worst_micros: self.worst_micros.max(other.worst_micros),
        }
    }

    /// The mean answer time in ms, none without answers.
    pub fn mean_ms(self) -> Option<f64> {
        (self.answers > 0).then(|| self.total_micros as f64 / f64::from(self.answers) / 1000.0)
    }

    /// The worst answer time in ms, none without answers.
    pub fn worst_ms(self) -> Option<f64> {
        (self.answers > 0).then(|| self.worst_micros as f64 / 1000.0)
    }
}

/// A player whose answers are timed.
pub struct Timed {
    player: Box<dyn Player>,
    latency: Latency,
}

impl Timed {
    /// Times `player`'s answers.
    pub fn new(player: Box<dyn Player>) -> Timed {
        Timed {
            player,
            latency: Latency::default(),
        }
    }

    /// Its answers' times so far.
    pub fn latency(&self) -> Latency {
        self.latency
    }
}

impl Player for Timed {
    fn label(&self) -> String {
        self.player.label()
    }

    fn tell(&mut self, message: &Message<'_>) {
        self.player.tell(message)
    }

    fn answer(&mut self, go: &Go<'_>) -> Answer {
        let asked = Instant::now();
        let answer = self.player.answer(go);
        self.latency.add(asked.elapsed());
        answer
    }

    fn dropped_lines(&self) -> u64 {
        self.player.dropped_lines()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_and_worsts_add_up() {
        let mut one = Latency::default();
        assert_eq!(one.mean_ms(), None);
        one.add(Duration::from_micros(1_500));
        one.add(Duration::from_micros(500));
        assert_eq!(one.mean_ms(), Some(1.0));
        assert_eq!(one.worst_ms(), Some(1.5));
        let mut other = Latency::default();
        other.add(Duration::from_millis(7));
        let both = one.merged(other);
        assert_eq!(both.answers, 3);
        assert_eq!(both.mean_ms(), Some(3.0));
        assert_eq!(both.worst_ms(), Some(7.0));
    }
}
