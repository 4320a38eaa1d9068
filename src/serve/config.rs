//! The server's limits, with defaults, read from `--config FILE` (TOML). Unknown keys are
//! errors naming the file, line and column, so a misspelt limit is never silently the
//! default.

use serde::Deserialize;
use std::path::Path;

/// What `--config` may set.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct ServeConfig {
    /// Players without a key may play as guests (keyboard-interactive sign-in with no
    /// question); nothing is kept for them.
    pub guests: bool,
    /// Every connection starts with a PROXY header (v1 or v2) naming the client, whose
    /// address the limits and logs then use: for a server behind HAProxy and the like.
    pub proxy_protocol: bool,
    pub limits: Limits,
    pub hints: HintLimits,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            // Trying the game should not need a key; a guest writes nothing and the
            // limits per address hold for guests too.
            guests: true,
            // Only a server behind a balancer gets headers; any other client would be
            // refused.
            proxy_protocol: false,
            limits: Limits::default(),
            hints: HintLimits::default(),
        }
    }
}

/// Per-address and per-session limits.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Limits {
    /// Sessions playing at once, in total.
    pub sessions: usize,
    /// Sessions playing at once from one source address.
    pub sessions_per_address: usize,
    /// Authentication attempts one address may make in a minute.
    pub auth_per_minute: u32,
    /// Seconds without input before a session is saved and closed (0: never).
    pub idle_timeout: u64,
    /// Seconds a session may last (0: no limit).
    pub max_session: u64,
    /// Input bytes a session may send per second, on average...
    pub input_bytes_per_second: u32,
    /// ...and in one burst (a paste, a held key).
    pub input_burst: u32,
    /// What happens to input beyond the rate: dropped, or the session closed.
    pub input_excess: Excess,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Excess {
    Drop,
    Close,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            sessions: 200,
            sessions_per_address: 8,
            auth_per_minute: 30,
            idle_timeout: 30 * 60,
            max_session: 8 * 60 * 60,
            // A fast typist sends ~20 keys a second, an arrow key 3 bytes, a mouse click
            // about 12: far under this, while a flood is cut down to it.
            input_bytes_per_second: 2048,
            input_burst: 8192,
            input_excess: Excess::Drop,
        }
    }
}

/// The shared pool that runs every session's hints.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct HintLimits {
    /// Threads searching hints (0: half the cores, at least one).
    pub workers: usize,
    /// Hints waiting for a worker; beyond that a player is told to try again.
    pub queue: usize,
    /// Milliseconds one hint may search before it is given up.
    pub time_limit_ms: u64,
}

impl Default for HintLimits {
    fn default() -> HintLimits {
        HintLimits {
            workers: 0,
            queue: 32,
            time_limit_ms: 3000,
        }
    }
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}:{line}:{col}: {message}")]
    Parse {
        file: String,
        line: usize,
        col: usize,
        message: String,
    },
    #[error("{file}: {message}")]
    Read { file: String, message: String },
}

/// Parses a configuration; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<ServeConfig, ConfigError> {
    toml::from_str::<ServeConfig>(text).map_err(|e| {
        let (line, col) = crate::format::line_col(text, e.span().map_or(0, |s| s.start));
        ConfigError::Parse {
            file: file.to_string(),
            line,
            col,
            message: e.message().trim().to_string(),
        }
    })
}

/// Reads the configuration file; none given, the defaults.
pub fn load(path: Option<&Path>) -> Result<ServeConfig, ConfigError> {
    let Some(path) = path else {
        return Ok(ServeConfig::default());
    };
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse(&text, &file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parse("", "serve.toml").unwrap(), ServeConfig::default());
    }

    #[test]
    fn limits_are_set_key_by_key() {
        let c = parse(
            "[limits]\nsessions = 3\ninput-excess = \"close\"\n[hints]\nqueue = 1\n",
            "serve.toml",
        )
        .unwrap();
        assert_eq!(c.limits.sessions, 3);
        assert_eq!(c.limits.input_excess, Excess::Close);
        assert_eq!(
            c.limits.sessions_per_address,
            Limits::default().sessions_per_address
        );
        assert_eq!(c.hints.queue, 1);
    }

    #[test]
    fn guests_are_welcome_unless_the_file_says_no() {
        assert!(parse("", "serve.toml").unwrap().guests);
        assert!(!parse("guests = false\n", "serve.toml").unwrap().guests);
    }

    #[test]
    fn the_proxy_protocol_is_off_unless_the_file_says_on() {
        assert!(!parse("", "serve.toml").unwrap().proxy_protocol);
        assert!(
            parse("proxy-protocol = true\n", "serve.toml")
                .unwrap()
                .proxy_protocol
        );
    }

    #[test]
    fn an_unknown_key_is_named_with_file_line_and_column() {
        let err = parse("[limits]\nsessions = 3\n  session-time = 5\n", "serve.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("serve.toml:3:3: "), "{err}");
        assert!(err.contains("session-time"), "{err}");
    }

    #[test]
    fn a_wrong_type_is_named_with_its_place() {
        let err = parse("[hints]\nworkers = \"many\"\n", "serve.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("serve.toml:2:11: "), "{err}");
    }
}
