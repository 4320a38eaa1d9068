//! The SSH side: one [`Connection`] per client. Public-key authentication names the
//! player; a session channel with a pty and a shell plays; everything else (exec,
//! subsystems, a shell without a pty, forwarding of ports, agents and X11) is refused and
//! logged.

use super::config::{Excess, Limits};
use super::console::{clamp_size, ChannelOut, Incoming, Outgoing, RemoteConsole};
use super::hints::HintPool;
use super::limits::{AuthRate, Bucket, Control, Gate, Refusal, Ticket, AUTH_RATE_MESSAGE};
use super::player::{self, ClientTerminal, Player, Sessions};
use super::store::Store;
use russh::keys::HashAlg;
use russh::server::{Auth, ChannelOpenHandle, Handle, Msg, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, ChannelOpenFailure, Pty};
use std::net::SocketAddr;
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

/// What every connection shares.
pub struct Shared {
    pub store: Arc<dyn Store>,
    pub sessions: Sessions,
    pub limits: Limits,
    /// Players without a key may play, keeping nothing.
    pub guests: bool,
    pub gate: Arc<Gate>,
    pub auth_rate: AuthRate,
    pub hints: Option<Arc<HintPool>>,
    pub dailies: Option<Arc<super::daily::Dailies>>,
}

/// Makes a [`Connection`] for each client.
#[derive(Clone)]
pub struct Server {
    pub shared: Arc<Shared>,
}

impl russh::server::Server for Server {
    type Handler = Connection;

    fn new_client(&mut self, peer: Option<SocketAddr>) -> Connection {
        tracing::info!(peer = ?peer, "connect");
        let limits = &self.shared.limits;
        // Counted from the first byte: handshakes cost the host too. A refused connection
        // still authenticates, so its player can be told why.
        let ticket = Gate::enter(&self.shared.gate, peer.map(|p| p.ip()), limits);
        if let Err(why) = &ticket {
            tracing::warn!(peer = ?peer, reason = ?why, "refused: limit");
        }
        Connection {
            shared: Arc::clone(&self.shared),
            peer,
            player: None,
            channel: None,
            client: ClientTerminal::default(),
            pty: false,
            to_player: None,
            ticket,
            bucket: Bucket::new(
                limits.input_bytes_per_second,
                limits.input_burst,
                Instant::now(),
            ),
            control: Arc::new(Control::default()),
            flooding: false,
        }
    }

    fn handle_session_error(&mut self, error: russh::Error) {
        tracing::info!(error = %error, "connection error");
    }
}

/// One client's connection.
pub struct Connection {
    shared: Arc<Shared>,
    peer: Option<SocketAddr>,
    player: Option<Player>,
    /// The one session channel a connection may open.
    channel: Option<ChannelId>,
    client: ClientTerminal,
    pty: bool,
    /// To the player's thread, once playing.
    to_player: Option<SyncSender<Incoming>>,
    /// This connection's place among the open ones, or why it has none.
    ticket: Result<Ticket, Refusal>,
    /// The input allowance.
    bucket: Bucket,
    /// Ends the session (input over the rate, the limits of time).
    control: Arc<Control>,
    /// Input beyond the rate was seen (logged once).
    flooding: bool,
}

/// How many chunks of input wait for the player's thread before the connection stops
/// reading from the client (its own TCP window then fills: nobody else waits).
const INPUT_QUEUE: usize = 64;
/// Chunks of screen output waiting for the connection.
const OUTPUT_QUEUE: usize = 16;

impl Connection {
    fn who(&self) -> &str {
        self.player.as_ref().map_or("-", |p| p.fingerprint.as_str())
    }

    /// Logs a refused request.
    fn refuse(&self, what: &str) {
        tracing::warn!(peer = ?self.peer, player = %self.who(), request = what, "refused");
    }

    /// Hands the player's thread what the client sent, waiting (without holding up the
    /// runtime) while its queue is full.
    async fn pass(&mut self, mut incoming: Incoming) {
        let Some(tx) = self.to_player.clone() else {
            return;
        };
        loop {
            match tx.try_send(incoming) {
                Ok(()) => return,
                Err(TrySendError::Full(back)) => {
                    incoming = back;
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                Err(TrySendError::Disconnected(_)) => {
                    self.to_player = None;
                    return;
                }
            }
        }
    }

    /// Starts the player on this channel: a thread of its own for the game, a task that
    /// carries its screen to the client.
    fn start_player(&mut self, channel: ChannelId, handle: Handle) {
        let Some(player) = self.player.clone() else {
            return;
        };
        let (to_player, from_client) = sync_channel(INPUT_QUEUE);
        let (to_client, mut from_player) = tokio::sync::mpsc::channel(OUTPUT_QUEUE);
        self.to_player = Some(to_player);
        tokio::spawn(async move {
            while let Some(out) = from_player.recv().await {
                match out {
                    Outgoing::Bytes(bytes) => {
                        if handle.data(channel, bytes).await.is_err() {
                            break;
                        }
                    }
                }
            }
            // The player's thread ended (or the client is gone): close the channel.
            let _ = handle.exit_status_request(channel, 0).await;
            let _ = handle.eof(channel).await;
            let _ = handle.close(channel).await;
        });
        let shared = Arc::clone(&self.shared);
        let client = self.client.clone();
        let console = RemoteConsole::new(from_client, client.size);
        let out = ChannelOut::new(to_client);
        let control = Arc::clone(&self.control);
        control.input();
        tracing::info!(peer = ?self.peer, player = %player.fingerprint, "play");
        let spawned = std::thread::Builder::new()
            .name("termdoku-session".into())
            .spawn(move || {
                let cx = player::SessionContext {
                    store: shared.store.as_ref(),
                    sessions: &shared.sessions,
                    limits: &shared.limits,
                    hints: shared.hints.clone(),
                    dailies: shared.dailies.clone(),
                };
                player::run(&cx, &player, &client, &control, console, out)
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "no thread for a session");
            self.to_player = None;
        }
    }
}

impl Connection {
    /// Counts a sign-in attempt; false (logged) when the address is over its rate.
    fn attempt(&self) -> bool {
        let Some(peer) = self.peer else {
            return true;
        };
        let limit = self.shared.limits.auth_per_minute;
        if self
            .shared
            .auth_rate
            .allow(peer.ip(), limit, Instant::now())
        {
            return true;
        }
        tracing::warn!(peer = ?self.peer, "refused: authentication rate");
        false
    }
}

/// Numbers guests (`guest-N`), so that each is a player of its own.
static GUESTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn authentication_banner(&mut self) -> Result<Option<String>, Self::Error> {
        // Sent before any attempt: an address already over its rate is told why it will
        // be refused (a refusal itself says no more than "permission denied").
        let over = self.peer.is_some_and(|p| {
            self.shared.auth_rate.exhausted(
                p.ip(),
                self.shared.limits.auth_per_minute,
                Instant::now(),
            )
        });
        Ok(over.then(|| format!("{AUTH_RATE_MESSAGE}\r\n")))
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        _key: russh::server::PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        // Each key a client offers is an attempt: the rate is counted here.
        if !self.attempt() {
            return Ok(Auth::reject());
        }
        Ok(Auth::Accept)
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        if !self.shared.guests || !self.attempt() {
            return Ok(Auth::reject());
        }
        // No question asked: a guest is whoever comes without a key.
        let n = GUESTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let player = Player {
            fingerprint: format!("guest-{n}"),
            guest: true,
        };
        tracing::info!(peer = ?self.peer, user, player = %player.fingerprint, "auth (guest)");
        self.player = Some(player);
        Ok(Auth::Accept)
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let fingerprint = key.public_key.fingerprint(HashAlg::Sha256);
        let player = Player {
            fingerprint: fingerprint.to_string(),
            guest: false,
        };
        tracing::info!(peer = ?self.peer, user, player = %player.fingerprint, "auth");
        self.player = Some(player);
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            self.refuse("second session channel");
            reply
                .reject(ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        self.channel = Some(channel.id());
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        _term: &str,
        cols: u32,
        rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.client.size = clamp_size(cols, rows);
        self.pty = true;
        session.channel_success(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Only the locale is read (for UTF-8), and only a little of it.
        let locale = ["LANG", "LC_ALL", "LC_CTYPE"].contains(&name);
        if locale && value.len() <= 64 && self.client.locale.len() < 3 {
            self.client
                .locale
                .push((name.to_string(), value.to_string()));
            return session.channel_success(channel);
        }
        session.channel_failure(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.pty || self.to_player.is_some() {
            self.refuse("shell without a pty");
            session.data(
                channel,
                "termdoku needs a terminal: connect with ssh -t.\r\n"
                    .as_bytes()
                    .to_vec(),
            )?;
            session.channel_failure(channel)?;
            return session.close(channel);
        }
        if let Err(why) = &self.ticket {
            // The shell is granted only to say why it ends: OpenSSH shows a refused
            // shell's data to nobody.
            session.channel_success(channel)?;
            session.data(channel, format!("{}\r\n", why.message()).into_bytes())?;
            session.exit_status_request(channel, 1)?;
            session.eof(channel)?;
            return session.close(channel);
        }
        session.channel_success(channel)?;
        self.start_player(channel, session.handle());
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // The command itself is not logged: it is the client's, and may be anything.
        self.refuse("exec");
        session.channel_failure(channel)?;
        session.close(channel)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let name: String = name.chars().take(32).collect();
        tracing::warn!(peer = ?self.peer, player = %self.who(), request = "subsystem", name = %name, "refused");
        session.channel_failure(channel)?;
        session.close(channel)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _protocol: &str,
        _cookie: &str,
        _screen: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("x11 forwarding");
        session.channel_failure(channel)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("agent forwarding");
        Ok(false)
    }

    async fn tcpip_forward(
        &mut self,
        _address: &str,
        _port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("remote port forwarding");
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        _socket_path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse("remote socket forwarding");
        Ok(false)
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        _host: &str,
        _port: u32,
        _originator: &str,
        _originator_port: u32,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("local port forwarding");
        reply
            .reject(ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn channel_open_direct_streamlocal(
        &mut self,
        _channel: Channel<Msg>,
        _socket_path: &str,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("local socket forwarding");
        reply
            .reject(ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn channel_open_x11(
        &mut self,
        _channel: Channel<Msg>,
        _originator: &str,
        _originator_port: u32,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse("x11 channel");
        reply
            .reject(ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.control.input();
        let allowed = self.bucket.take(data.len(), Instant::now());
        if allowed < data.len() {
            if !self.flooding {
                self.flooding = true;
                tracing::warn!(peer = ?self.peer, player = %self.who(), "refused: input over the rate");
            }
            if self.shared.limits.input_excess == Excess::Close {
                self.control
                    .end("termdoku: closed: input came faster than the server allows.");
                return Ok(());
            }
        }
        if allowed > 0 {
            self.pass(Incoming::Bytes(data[..allowed].to_vec())).await;
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        _channel: ChannelId,
        cols: u32,
        rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let size = clamp_size(cols, rows);
        self.client.size = size;
        self.pass(Incoming::Resize(size)).await;
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // The client sends nothing more: the player's loop sees a hang-up.
        self.to_player = None;
        Ok(())
    }

    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.to_player = None;
        Ok(())
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        tracing::info!(peer = ?self.peer, player = %self.who(), "disconnect");
    }
}
