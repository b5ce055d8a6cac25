//! The server's connections, on hyper directly (axum's `serve` has no settings for
//! them): a cap on open connections (one past it gets a short 503 and is closed, so
//! idle clients cannot use up the process's descriptors), a timeout for a request's
//! headers that also ends a kept-alive connection left idle, no Nagle delay, and a
//! graceful stop. An accept error (descriptors exhausted) is logged and waited out,
//! never the end of the server.
//!
//! This file moves connections; it must not look at requests.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Limits on connections.
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    /// Connections open at once.
    pub max_connections: usize,
    /// The longest a client may take to send a request's headers, and the longest a
    /// kept-alive connection may wait idle for its next request.
    pub header_timeout: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_connections: 512,
            header_timeout: Duration::from_secs(30),
        }
    }
}

/// The answer to a connection past the cap.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: 75\r\nretry-after: 1\r\nconnection: close\r\n\r\n{\"error\":\"too many connections are open to this server: try again shortly\"}";

/// Serves `app` on `listener` until `stop` completes, then lets open requests finish
/// (the caller bounds how long).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut stop => break,
        };
        let tcp = match accepted {
            Ok((tcp, _)) => tcp,
            Err(e) => {
                log::warn!("accepting a connection failed: {e}; trying again shortly");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Answers go out at once: with Nagle's algorithm a response written in two parts
        // (headers, then a file's bytes) waits for the client's delayed ACK, 4 ms per
        // request on a kept-alive connection (measured with Range GETs on loopback).
        if let Err(e) = tcp.set_nodelay(true) {
            log::debug!("TCP_NODELAY not set on a connection: {e}");
        }
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tokio::spawn(async move {
                let mut tcp = tcp;
                let _ = tokio::time::timeout(Duration::from_secs(1), tcp.write_all(BUSY)).await;
            });
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(tcp), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                log::debug!("connection ended: {e}");
            }
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
