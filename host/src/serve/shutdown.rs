//! Waiting for the signal to stop: Ctrl-C (SIGINT) or SIGTERM (service managers,
//! `kill`). The server then stops accepting, finishes the requests under way, and
//! exits; this file only waits and says which signal came.

/// Completes when the process is asked to stop.
pub async fn signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let ctrl_c = tokio::signal::ctrl_c();
    let term = async {
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            // Without a SIGTERM handler, Ctrl-C still stops the server.
            Err(e) => {
                log::warn!("cannot listen for SIGTERM ({e}); Ctrl-C still stops the server");
                std::future::pending::<()>().await;
            }
        }
    };
    let which = tokio::select! {
        _ = ctrl_c => "Ctrl-C",
        _ = term => "SIGTERM",
    };
    log::info!("{which}: finishing the requests under way and stopping");
}
