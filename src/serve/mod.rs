//! `termdoku serve`: the player over SSH (design.md, "termdoku serve"). One process speaks
//! SSH itself; each connection with a pty plays the same app as the local player, on a
//! thread of its own, saved in the data folder under the key's fingerprint.

pub mod config;
pub mod console;
pub mod daily;
pub mod hints;
pub mod host_key;
pub mod input;
pub mod limits;
pub mod listen;
pub mod player;
pub mod proxy;
pub mod ssh;
pub mod store;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `termdoku serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeArgs {
    pub listen: String,
    pub data: PathBuf,
    /// The host key's file (default: `host_ed25519` in the data folder). Servers behind
    /// one address share one, so clients see one host.
    pub host_key: Option<PathBuf>,
    /// The players' database: a `postgres://` URL or an SQLite file (default: the SQLite
    /// file in the data folder).
    pub database: Option<String>,
    /// The limits' file (TOML; default: the built-in limits).
    pub config: Option<PathBuf>,
    /// Every connection starts with a PROXY header (also `proxy-protocol` in the file).
    pub proxy_protocol: bool,
}

/// The players' database, in the data folder.
pub const DATABASE: &str = "termdoku.db";

/// How long the sessions have to save and go at SIGTERM.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(4);

/// Runs the server until SIGTERM or SIGINT; returns the exit status.
pub fn serve(args: ServeArgs) -> i32 {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
    let config = match config::load(args.config.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return 2;
        }
    };
    let key_path = args
        .host_key
        .clone()
        .unwrap_or_else(|| args.data.join("host_ed25519"));
    let key = match host_key::load_or_create(&key_path) {
        Ok((key, made)) => {
            let how = if made { "made" } else { "read" };
            println!(
                "termdoku serve: host key {} ({how}): {}",
                key_path.display(),
                host_key::fingerprint(&key)
            );
            key
        }
        Err(e) => {
            eprintln!("termdoku: host key: {e}");
            return 2;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&args.data) {
        eprintln!("termdoku: {}: {e}", args.data.display());
        return 2;
    }
    let database = store::Database::from_arg(args.database.as_deref(), &args.data.join(DATABASE));
    let store = match database.open() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return 2;
        }
    };
    println!("termdoku serve: database {}", database.shown());
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        let _ = signal_hook::flag::register(sig, Arc::clone(&stop));
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return 1;
        }
    };
    let hints = match hints::HintPool::start(&config.hints) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("termdoku: hint workers: {e}");
            return 1;
        }
    };
    let dailies = match daily::Dailies::start(Arc::clone(&store) as Arc<dyn store::Store>) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("termdoku: daily puzzles: {e}");
            return 1;
        }
    };
    let shared = Arc::new(ssh::Shared {
        store,
        sessions: player::Sessions::default(),
        limits: config.limits,
        guests: config.guests,
        gate: Arc::default(),
        auth_rate: limits::AuthRate::default(),
        hints: Some(hints),
        dailies: Some(dailies),
    });
    let proxy_protocol = args.proxy_protocol || config.proxy_protocol;
    runtime.block_on(run(args, key, shared, stop, proxy_protocol))
}

async fn run(
    args: ServeArgs,
    key: russh::keys::PrivateKey,
    shared: Arc<ssh::Shared>,
    stop: Arc<AtomicBool>,
    proxy_protocol: bool,
) -> i32 {
    let listener = match tokio::net::TcpListener::bind(&args.listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("termdoku: cannot listen on {}: {e}", args.listen);
            return 2;
        }
    };
    // `none` is never accepted: OpenSSH tries it before any key, so a player with a key
    // would come in as a guest. Guests sign in with keyboard-interactive (no question).
    let methods: &[russh::MethodKind] = if shared.guests {
        &[
            russh::MethodKind::PublicKey,
            russh::MethodKind::KeyboardInteractive,
        ]
    } else {
        &[russh::MethodKind::PublicKey]
    };
    let config = Arc::new(russh::server::Config {
        keys: vec![key],
        methods: russh::MethodSet::from(methods),
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        inactivity_timeout: Some(Duration::from_secs(3600)),
        keepalive_interval: Some(Duration::from_secs(60)),
        nodelay: true,
        ..Default::default()
    });
    if let Ok(at) = listener.local_addr() {
        let proxied = if proxy_protocol {
            " (PROXY protocol: every connection must start with its header)"
        } else {
            ""
        };
        println!("termdoku serve: listening on {at}{proxied}");
    }
    let server = ssh::Server {
        shared: Arc::clone(&shared),
    };
    let (shutdown, _) = tokio::sync::broadcast::channel::<String>(1);
    let running = listen::accept(server, config, &listener, proxy_protocol, shutdown.clone());
    let signalled = async {
        while !stop.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    // Accepting ends at a signal; the connections run on as tasks of their own.
    tokio::select! {
        ended = running => {
            if let Err(e) = ended {
                eprintln!("termdoku: serve: {e}");
                return 1;
            }
        }
        () = signalled => {}
    }
    tracing::info!("stopping: sessions save and end");
    shared.sessions.shutdown.store(true, Ordering::SeqCst);
    let start = Instant::now();
    while shared.sessions.count() > 0 && start.elapsed() < SHUTDOWN_WAIT {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Whatever remains (a client still connecting) is disconnected.
    let _ = shutdown.send("server stopping".into());
    tokio::time::sleep(Duration::from_millis(100)).await;
    0
}
