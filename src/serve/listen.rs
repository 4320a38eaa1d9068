//! Accepting connections: each is handed to russh with its client's address, which is
//! read from a PROXY header first when the server sits behind a load balancer
//! (`proxy-protocol`). Without the header such a connection is refused and logged.

use super::proxy::{self, Header};
use super::ssh;
use russh::server::Server as _;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::broadcast;

/// How long a connection may take to send its PROXY header (a balancer sends it at once).
pub const HEADER_WAIT: Duration = Duration::from_secs(5);

/// Accepts connections until dropped (or the listener fails). A message on `shutdown`
/// disconnects every connection with it as the reason.
pub async fn accept(
    server: ssh::Server,
    config: Arc<russh::server::Config>,
    listener: &TcpListener,
    proxy_protocol: bool,
    shutdown: broadcast::Sender<String>,
) -> std::io::Result<()> {
    loop {
        let (mut socket, addr) = match listener.accept().await {
            Ok(s) => s,
            // Out of file descriptors and the like pass; the server must not end on them.
            Err(e) if is_transient(&e) => {
                tracing::warn!(error = %e, "accept");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        let mut server = server.clone();
        let config = Arc::clone(&config);
        let mut stopping = shutdown.subscribe();
        tokio::spawn(async move {
            if config.nodelay {
                let _ = socket.set_nodelay(true);
            }
            let peer = if proxy_protocol {
                match proxy::read_header(&mut socket, HEADER_WAIT).await {
                    Ok(Header::Proxied { source, .. }) => source,
                    Ok(Header::Local) => addr,
                    Err(e) => {
                        tracing::warn!(peer = ?addr, error = %e, "refused: PROXY header");
                        return;
                    }
                }
            } else {
                addr
            };
            let handler = server.new_client(Some(peer));
            let session = match russh::server::run_stream(config, socket, handler).await {
                Ok(s) => s,
                Err(e) => {
                    server.handle_session_error(e);
                    return;
                }
            };
            let handle = session.handle();
            tokio::select! {
                reason = stopping.recv() => {
                    let _ = handle
                        .disconnect(
                            russh::Disconnect::ByApplication,
                            reason.unwrap_or_default(),
                            String::new(),
                        )
                        .await;
                }
                ended = session => {
                    if let Err(e) = ended {
                        server.handle_session_error(e);
                    }
                }
            }
        });
    }
}

fn is_transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    ) || e
        .raw_os_error()
        .is_some_and(|n| n == libc::EMFILE || n == libc::ENFILE)
}
