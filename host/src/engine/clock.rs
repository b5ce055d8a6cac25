//! The process's CPU time (user + system of every thread, from `getrusage`) and a
//! stopwatch of CPU and wall time together: what the solver's per-tier figures, the
//! floor and the benches measure with. It measures; it must not decide or print.

use std::time::Instant;

/// The process's CPU time so far (user + system of every thread), in seconds.
pub fn process_cpu() -> f64 {
    rusage_seconds(libc::RUSAGE_SELF)
}

/// The CPU time of the process's waited-for children so far, in seconds.
pub fn children_cpu() -> f64 {
    rusage_seconds(libc::RUSAGE_CHILDREN)
}

/// The largest resident set of any waited-for child so far, in bytes.
pub fn children_peak_bytes() -> u64 {
    rusage(libc::RUSAGE_CHILDREN).map_or(0, |u| u.ru_maxrss as u64 * 1024)
}

fn rusage(who: libc::c_int) -> Option<libc::rusage> {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    (unsafe { libc::getrusage(who, &mut u) } == 0).then_some(u)
}

fn rusage_seconds(who: libc::c_int) -> f64 {
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    rusage(who).map_or(0.0, |u| t(u.ru_utime) + t(u.ru_stime))
}

/// CPU time (the process's own, or its waited-for children's) and the wall time since
/// it was started.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    clock: fn() -> f64,
    cpu: f64,
    wall: Instant,
}

impl Stopwatch {
    /// Starts measuring the process's own CPU now.
    pub fn start() -> Stopwatch {
        Stopwatch::with(process_cpu)
    }

    /// Starts measuring the CPU of the children the process waits for from now on.
    pub fn children() -> Stopwatch {
        Stopwatch::with(children_cpu)
    }

    fn with(clock: fn() -> f64) -> Stopwatch {
        Stopwatch {
            clock,
            cpu: clock(),
            wall: Instant::now(),
        }
    }

    /// The CPU seconds and the wall seconds since the start.
    pub fn read(&self) -> (f64, f64) {
        ((self.clock)() - self.cpu, self.wall.elapsed().as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_loop_shows_in_cpu_and_wall() {
        let watch = Stopwatch::start();
        let mut x = 1u64;
        while watch.read().1 < 0.05 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let (cpu, wall) = watch.read();
        assert!(wall >= 0.05, "{wall}");
        // The loop spins on this thread, so at least half its wall time is CPU time. No
        // upper bound: the clock is the whole process's, and the test harness runs other
        // tests on other threads at the same time (CI saw 0.10 s of CPU in 0.05 s).
        assert!(cpu >= 0.025, "cpu {cpu}, wall {wall}");
    }
}
