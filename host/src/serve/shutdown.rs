//! Waiting for the signal to stop: Ctrl-C (SIGINT) or SIGTERM (service managers,
//! `kill`). The server then stops accepting, finishes the requests under way, and
//! exits; this file only listens and says which signal came. The handlers are
//! installed by `listen`, before the server answers anything: a signal that comes
//! after the first answer must stop it gracefully, not by the default action.

use tokio::signal::unix::{signal, Signal, SignalKind};

/// The stop signals, caught from the moment `listen` returned.
pub struct Stop {
    int: Option<Signal>,
    term: Option<Signal>,
}

/// Installs the handlers of Ctrl-C and SIGTERM (inside the server's runtime).
pub fn listen() -> Stop {
    let open = |kind: SignalKind, name: &str| match signal(kind) {
        Ok(s) => Some(s),
        // Without one handler, the other signal still stops the server.
        Err(e) => {
            log::warn!("cannot listen for {name} ({e}); the other signal still stops the server");
            None
        }
    };
    Stop {
        int: open(SignalKind::interrupt(), "Ctrl-C"),
        term: open(SignalKind::terminate(), "SIGTERM"),
    }
}

impl Stop {
    /// Completes when the process is asked to stop.
    pub async fn wait(mut self) {
        async fn next(s: Option<&mut Signal>) {
            match s {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        let which = tokio::select! {
            () = next(self.int.as_mut()) => "Ctrl-C",
            () = next(self.term.as_mut()) => "SIGTERM",
        };
        log::info!("{which}: finishing the requests under way and stopping");
    }
}
