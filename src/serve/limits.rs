//! Enforcing the [`Limits`]: connections counted in total and per address, authentication
//! attempts per address per minute, and a token bucket on each session's input. Idle and
//! session time are checked by the session's watcher (see `player::run`).

use super::config::Limits;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why a connection may not play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Full,
    AddressFull,
}

/// What a client over its authentication rate is shown (as the SSH banner).
pub const AUTH_RATE_MESSAGE: &str =
    "termdoku: too many sign-in attempts from your address; please wait a minute.";

impl Refusal {
    /// What the player is told.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Full => "termdoku: the server is full; please try again later.",
            Refusal::AddressFull => {
                "termdoku: too many sessions from your address; close one and try again."
            }
        }
    }
}

/// The connections open, in total and per source address.
#[derive(Default)]
pub struct Gate {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// A connection counted at the gate; dropping it frees the place.
pub struct Ticket {
    gate: Arc<Gate>,
    addr: Option<IpAddr>,
}

impl Gate {
    /// Counts a connection from `addr`, unless the limits are reached.
    pub fn enter(
        gate: &Arc<Gate>,
        addr: Option<IpAddr>,
        limits: &Limits,
    ) -> Result<Ticket, Refusal> {
        let mut open = gate.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.0 >= limits.sessions {
            return Err(Refusal::Full);
        }
        if let Some(a) = addr {
            let n = open.1.entry(a).or_insert(0);
            if *n >= limits.sessions_per_address {
                return Err(Refusal::AddressFull);
            }
            *n += 1;
        }
        open.0 += 1;
        Ok(Ticket {
            gate: Arc::clone(gate),
            addr,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.gate.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(a) = self.addr {
            if let Some(n) = open.1.get_mut(&a) {
                *n -= 1;
                if *n == 0 {
                    open.1.remove(&a);
                }
            }
        }
    }
}

/// Authentication attempts per address in the last minute.
#[derive(Default)]
pub struct AuthRate {
    seen: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

const MINUTE: Duration = Duration::from_secs(60);

impl AuthRate {
    /// Whether the address has used its minute's share at `now` (nothing is counted).
    pub fn exhausted(&self, addr: IpAddr, per_minute: u32, now: Instant) -> bool {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(&addr).is_some_and(|q| {
            q.iter()
                .filter(|t| now.duration_since(**t) < MINUTE)
                .count()
                >= per_minute as usize
        })
    }

    /// Counts an attempt at `now`; false when the address has used its minute's share.
    pub fn allow(&self, addr: IpAddr, per_minute: u32, now: Instant) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        // Forget addresses that have been quiet a minute, so the map stays small.
        if seen.len() > 1024 {
            seen.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < MINUTE));
        }
        let q = seen.entry(addr).or_default();
        while q.front().is_some_and(|t| now.duration_since(*t) >= MINUTE) {
            q.pop_front();
        }
        if q.len() >= per_minute as usize {
            return false;
        }
        q.push_back(now);
        true
    }
}

/// A session's input allowance: `rate` bytes a second, up to `burst` at once.
pub struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub fn new(rate: u32, burst: u32, now: Instant) -> Bucket {
        let burst = f64::from(burst.max(rate).max(1));
        Bucket {
            rate: f64::from(rate),
            burst,
            tokens: burst,
            at: now,
        }
    }

    /// How many of `n` bytes arriving at `now` are within the allowance.
    pub fn take(&mut self, n: usize, now: Instant) -> usize {
        let dt = now.duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        let allowed = (self.tokens.max(0.0) as usize).min(n);
        self.tokens -= allowed as f64;
        allowed
    }
}

/// One session's controls, shared by its connection and its player's thread.
pub struct Control {
    /// Raised to end the session (it saves first).
    pub stop: AtomicBool,
    /// Why it was ended, told to the player.
    pub reason: Mutex<Option<String>>,
    started: Instant,
    /// Milliseconds from `started` to the last input.
    last_input: AtomicU64,
}

impl Default for Control {
    fn default() -> Control {
        Control {
            stop: AtomicBool::new(false),
            reason: Mutex::new(None),
            started: Instant::now(),
            last_input: AtomicU64::new(0),
        }
    }
}

impl Control {
    /// Ends the session, telling the player why (the first reason wins).
    pub fn end(&self, why: &str) {
        let mut reason = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        if reason.is_none() {
            *reason = Some(why.to_string());
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn reason(&self) -> Option<String> {
        self.reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Notes input now.
    pub fn input(&self) {
        let ms = self.started.elapsed().as_millis() as u64;
        self.last_input.store(ms, Ordering::Relaxed);
    }

    /// Ends the session when it has been idle or open too long (0 seconds: no limit).
    pub fn check_time(&self, limits: &Limits) {
        let now = self.started.elapsed();
        let idle = now.saturating_sub(Duration::from_millis(
            self.last_input.load(Ordering::Relaxed),
        ));
        if limits.idle_timeout > 0 && idle >= Duration::from_secs(limits.idle_timeout) {
            self.end("termdoku: closed after a long time without a key; your game is saved.");
        } else if limits.max_session > 0 && now >= Duration::from_secs(limits.max_session) {
            self.end("termdoku: this session reached its time limit; your game is saved.");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(total: usize, per_address: usize) -> Limits {
        Limits {
            sessions: total,
            sessions_per_address: per_address,
            ..Limits::default()
        }
    }

    #[test]
    fn the_gate_counts_per_address_and_in_total_and_frees_on_drop() {
        let gate = Arc::new(Gate::default());
        let l = limits(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = Gate::enter(&gate, Some(a), &l).unwrap();
        let _a2 = Gate::enter(&gate, Some(a), &l).unwrap();
        assert_eq!(
            Gate::enter(&gate, Some(a), &l).err(),
            Some(Refusal::AddressFull)
        );
        let _b1 = Gate::enter(&gate, Some(b), &l).unwrap();
        assert_eq!(Gate::enter(&gate, Some(b), &l).err(), Some(Refusal::Full));
        drop(a1);
        assert!(Gate::enter(&gate, Some(a), &l).is_ok());
    }

    #[test]
    fn auth_attempts_are_limited_per_address_per_minute() {
        let rate = AuthRate::default();
        let t = Instant::now();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(rate.allow(a, 2, t));
        assert!(!rate.exhausted(a, 2, t));
        assert!(rate.allow(a, 2, t + Duration::from_secs(1)));
        assert!(rate.exhausted(a, 2, t + Duration::from_secs(1)));
        assert!(!rate.allow(a, 2, t + Duration::from_secs(2)));
        assert!(rate.allow(b, 2, t + Duration::from_secs(2)));
        // A minute after the first attempt, one more is allowed.
        assert!(rate.allow(a, 2, t + Duration::from_secs(60)));
    }

    #[test]
    fn the_bucket_allows_a_burst_then_the_rate() {
        let t = Instant::now();
        let mut b = Bucket::new(100, 300, t);
        assert_eq!(b.take(250, t), 250);
        assert_eq!(b.take(250, t), 50);
        assert_eq!(b.take(250, t + Duration::from_millis(500)), 50);
        assert_eq!(b.take(1000, t + Duration::from_secs(60)), 300);
    }

    #[test]
    fn a_session_ends_when_idle_or_too_long() {
        let c = Control::default();
        let l = Limits {
            idle_timeout: 0,
            max_session: 0,
            ..Limits::default()
        };
        c.check_time(&l);
        assert!(!c.stop.load(Ordering::SeqCst), "0 is no limit");
        let idle = Limits {
            idle_timeout: 1,
            ..Limits::default()
        };
        let c = Control {
            started: Instant::now() - Duration::from_secs(5),
            ..Control::default()
        };
        c.check_time(&idle);
        assert!(c.reason().unwrap().contains("without a key"));
        let long = Limits {
            max_session: 3,
            ..Limits::default()
        };
        let c = Control {
            started: Instant::now() - Duration::from_secs(5),
            ..Control::default()
        };
        c.input();
        c.check_time(&long);
        assert!(c.reason().unwrap().contains("time limit"));
    }
}
