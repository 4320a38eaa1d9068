//! The PROXY protocol (HAProxy's, versions 1 and 2): behind a TCP load balancer every
//! connection starts with a header naming the client's address, which the per-address
//! limits and the logs then use. Only the header is read from the connection, byte-exact,
//! so what follows it (the SSH client's version line) is left for russh.
//!
//! Version 1 is one text line: `PROXY TCP4 <src> <dst> <sport> <dport>\r\n` (`TCP6`, or
//! `UNKNOWN` and anything up to the line's end), at most 107 bytes. Version 2 is a 12-byte
//! signature, a version and command byte, a family byte, a 16-bit length and that many
//! bytes of addresses (and TLVs, skipped).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};

/// What a PROXY header says about the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// Relayed for this client, to this address of the balancer.
    Proxied {
        source: SocketAddr,
        destination: SocketAddr,
    },
    /// The balancer's own connection (a health check, v2 `LOCAL`), or a client it cannot
    /// name (v1 `UNKNOWN`, v2 unspecified or Unix addresses): the connection's own
    /// address stands.
    Local,
}

/// Why bytes are not (yet) a header.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The header is not complete: at least `need` more bytes, and reading exactly that
    /// many never reads past its end.
    #[error("incomplete PROXY header")]
    Incomplete { need: usize },
    #[error("bad PROXY header: {0}")]
    Invalid(String),
}

/// Why a connection's header could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Parse(ParseError),
    #[error("no PROXY header within {0:?}")]
    Timeout(Duration),
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
}

const V1_PREFIX: &[u8] = b"PROXY ";
/// A v1 line's longest form, CRLF included.
const V1_MAX: usize = 107;
/// The shortest v1 line (`PROXY UNKNOWN\r\n`).
const V1_MIN: usize = 15;
const V2_SIGNATURE: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";
const V2_FIXED: usize = 16;

fn invalid(why: impl Into<String>) -> ParseError {
    ParseError::Invalid(why.into())
}

/// Parses the header at the start of `bytes`: the header and its length in bytes.
pub fn parse(bytes: &[u8]) -> Result<(Header, usize), ParseError> {
    let n = bytes.len().min(V1_PREFIX.len());
    if bytes[..n] == V1_PREFIX[..n] {
        if bytes.len() < V1_MIN {
            return Err(ParseError::Incomplete {
                need: V1_MIN - bytes.len(),
            });
        }
        return parse_v1(bytes);
    }
    let n = bytes.len().min(V2_SIGNATURE.len());
    if bytes[..n] == V2_SIGNATURE[..n] {
        return parse_v2(bytes);
    }
    Err(invalid("the connection does not start with a PROXY header"))
}

fn parse_v1(bytes: &[u8]) -> Result<(Header, usize), ParseError> {
    let window = &bytes[..bytes.len().min(V1_MAX)];
    let Some(end) = window.windows(2).position(|w| w == b"\r\n") else {
        if bytes.len() >= V1_MAX {
            return Err(invalid("v1 line longer than 107 bytes"));
        }
        // The line ends with "\r\n": a last byte '\r' may be followed by the '\n'.
        return Err(ParseError::Incomplete { need: 1 });
    };
    let line = std::str::from_utf8(&bytes[V1_PREFIX.len()..end])
        .map_err(|_| invalid("v1 line is not text"))?;
    let used = end + 2;
    let fields: Vec<&str> = line.split(' ').collect();
    match fields[0] {
        // Anything may follow UNKNOWN; the receiver ignores it.
        "UNKNOWN" => Ok((Header::Local, used)),
        proto @ ("TCP4" | "TCP6") => {
            let [_, src, dst, sport, dport] = fields[..] else {
                return Err(invalid(format!(
                    "v1 {proto} needs 4 fields, found {}",
                    fields.len() - 1
                )));
            };
            let ip = |s: &str| -> Result<IpAddr, ParseError> {
                let ip: IpAddr = match proto {
                    "TCP4" => s.parse::<Ipv4Addr>().map(IpAddr::V4),
                    _ => s.parse::<Ipv6Addr>().map(IpAddr::V6),
                }
                .map_err(|_| invalid(format!("v1 {proto}: `{s}` is not an address")))?;
                Ok(ip)
            };
            let port = |s: &str| -> Result<u16, ParseError> {
                let digits = !s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit());
                digits
                    .then(|| s.parse::<u16>().ok())
                    .flatten()
                    .ok_or_else(|| invalid(format!("v1: `{s}` is not a port")))
            };
            Ok((
                Header::Proxied {
                    source: SocketAddr::new(ip(src)?, port(sport)?),
                    destination: SocketAddr::new(ip(dst)?, port(dport)?),
                },
                used,
            ))
        }
        other => Err(invalid(format!(
            "v1 protocol `{}` (TCP4, TCP6 or UNKNOWN)",
            other.chars().take(16).collect::<String>()
        ))),
    }
}

fn parse_v2(bytes: &[u8]) -> Result<(Header, usize), ParseError> {
    if bytes.len() < V2_FIXED {
        return Err(ParseError::Incomplete {
            need: V2_FIXED - bytes.len(),
        });
    }
    let (ver_cmd, family) = (bytes[12], bytes[13]);
    let len = usize::from(u16::from_be_bytes([bytes[14], bytes[15]]));
    if ver_cmd >> 4 != 2 {
        return Err(invalid(format!("v2 version {}", ver_cmd >> 4)));
    }
    let local = match ver_cmd & 0x0F {
        0 => true,
        1 => false,
        c => return Err(invalid(format!("v2 command {c}"))),
    };
    let total = V2_FIXED + len;
    if bytes.len() < total {
        return Err(ParseError::Incomplete {
            need: total - bytes.len(),
        });
    }
    let body = &bytes[V2_FIXED..total];
    // The address block's size by family: none, IPv4, IPv6, Unix.
    let need = match family >> 4 {
        0 => 0,
        1 => 12,
        2 => 36,
        3 => 216,
        f => return Err(invalid(format!("v2 address family {f}"))),
    };
    if family & 0x0F > 2 {
        return Err(invalid(format!("v2 transport {}", family & 0x0F)));
    }
    if body.len() < need {
        return Err(invalid(format!(
            "v2 address block of {} bytes, {need} needed",
            body.len()
        )));
    }
    if local {
        return Ok((Header::Local, total));
    }
    let port = |at: usize| u16::from_be_bytes([body[at], body[at + 1]]);
    let header = match family >> 4 {
        1 => {
            let ip = |at: usize| {
                IpAddr::V4(Ipv4Addr::new(
                    body[at],
                    body[at + 1],
                    body[at + 2],
                    body[at + 3],
                ))
            };
            Header::Proxied {
                source: SocketAddr::new(ip(0), port(8)),
                destination: SocketAddr::new(ip(4), port(10)),
            }
        }
        2 => {
            let ip = |at: usize| {
                let mut octets = [0u8; 16];
                octets.copy_from_slice(&body[at..at + 16]);
                IpAddr::V6(Ipv6Addr::from(octets))
            };
            Header::Proxied {
                source: SocketAddr::new(ip(0), port(32)),
                destination: SocketAddr::new(ip(16), port(34)),
            }
        }
        // Unspecified or Unix: no client address to use.
        _ => Header::Local,
    };
    Ok((header, total))
}

/// Reads the header from the start of a connection, never past its end, giving up after
/// `limit`.
pub async fn read_header<R: AsyncRead + Unpin>(
    stream: &mut R,
    limit: Duration,
) -> Result<Header, ReadError> {
    let read = async {
        let mut buf: Vec<u8> = Vec::with_capacity(V1_MAX);
        loop {
            match parse(&buf) {
                Ok((header, _)) => return Ok(header),
                Err(ParseError::Incomplete { need }) => {
                    let at = buf.len();
                    buf.resize(at + need, 0);
                    stream.read_exact(&mut buf[at..]).await?;
                }
                Err(e) => return Err(ReadError::Parse(e)),
            }
        }
    };
    tokio::time::timeout(limit, read)
        .await
        .unwrap_or(Err(ReadError::Timeout(limit)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v2(cmd: u8, family: u8, body: &[u8]) -> Vec<u8> {
        let mut b = V2_SIGNATURE.to_vec();
        b.push(0x20 | cmd);
        b.push(family);
        b.extend_from_slice(&(body.len() as u16).to_be_bytes());
        b.extend_from_slice(body);
        b
    }

    fn addr(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn v1_tcp4_and_tcp6_name_the_client() {
        let line = b"PROXY TCP4 203.0.113.7 10.0.0.1 51234 2222\r\nSSH-2.0-x\r\n";
        let (h, used) = parse(line).unwrap();
        assert_eq!(
            h,
            Header::Proxied {
                source: addr("203.0.113.7:51234"),
                destination: addr("10.0.0.1:2222"),
            }
        );
        assert_eq!(&line[used..], b"SSH-2.0-x\r\n");
        let (h, _) = parse(b"PROXY TCP6 2001:db8::7 ::1 65535 22\r\n").unwrap();
        assert_eq!(
            h,
            Header::Proxied {
                source: addr("[2001:db8::7]:65535"),
                destination: addr("[::1]:22"),
            }
        );
    }

    #[test]
    fn v1_unknown_keeps_the_connections_address() {
        assert_eq!(parse(b"PROXY UNKNOWN\r\n").unwrap(), (Header::Local, 15));
        let l = b"PROXY UNKNOWN ffff:f...f:ffff 1 2 3\r\nrest";
        assert_eq!(parse(l).unwrap(), (Header::Local, l.len() - 4));
    }

    #[test]
    fn v1_mistakes_are_refused_by_name() {
        for (bad, says) in [
            (&b"PROXY TCP4 ::1 10.0.0.1 1 2\r\n"[..], "not an address"),
            (b"PROXY TCP6 10.0.0.1 ::1 1 2\r\n", "not an address"),
            (b"PROXY TCP4 1.2.3.4 5.6.7.8 1 65536\r\n", "not a port"),
            (b"PROXY TCP4 1.2.3.4 5.6.7.8 +1 2\r\n", "not a port"),
            (b"PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n", "needs 4 fields"),
            (b"PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n", "needs 4 fields"),
            (b"PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n", "protocol `UDP4`"),
            (b"SSH-2.0-OpenSSH_9.2p1\r\n", "does not start"),
        ] {
            match parse(bad) {
                Err(ParseError::Invalid(why)) => assert!(why.contains(says), "{why}"),
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(bad)),
            }
        }
        let long = [&b"PROXY UNKNOWN "[..], &[b'x'; 100]].concat();
        assert!(matches!(parse(&long), Err(ParseError::Invalid(_))));
    }

    #[test]
    fn v2_proxy_names_the_client_and_local_keeps_the_connections() {
        let mut body = vec![192, 0, 2, 9, 10, 0, 0, 1];
        body.extend_from_slice(&4242u16.to_be_bytes());
        body.extend_from_slice(&2222u16.to_be_bytes());
        // A TLV after the addresses is skipped with them.
        body.extend_from_slice(&[0x04, 0, 1, 0]);
        let h = v2(1, 0x11, &body);
        let mut with_more = h.clone();
        with_more.extend_from_slice(b"SSH-2.0-x");
        assert_eq!(
            parse(&with_more).unwrap(),
            (
                Header::Proxied {
                    source: addr("192.0.2.9:4242"),
                    destination: addr("10.0.0.1:2222"),
                },
                h.len()
            )
        );
        let mut body6 = vec![0u8; 36];
        body6[0] = 0x20;
        body6[1] = 0x01;
        body6[15] = 7;
        body6[31] = 1;
        body6[32..34].copy_from_slice(&1000u16.to_be_bytes());
        body6[34..36].copy_from_slice(&22u16.to_be_bytes());
        assert_eq!(
            parse(&v2(1, 0x21, &body6)).unwrap().0,
            Header::Proxied {
                source: addr("[2001::7]:1000"),
                destination: addr("[::1]:22"),
            }
        );
        // LOCAL (a health check) with or without addresses; PROXY with none.
        assert_eq!(parse(&v2(0, 0x00, &[])).unwrap(), (Header::Local, 16));
        assert_eq!(parse(&v2(0, 0x11, &body)).unwrap().0, Header::Local);
        assert_eq!(parse(&v2(1, 0x00, &[])).unwrap().0, Header::Local);
    }

    #[test]
    fn v2_mistakes_are_refused() {
        let body = [0u8; 12];
        let mut bad_version = v2(1, 0x11, &body);
        bad_version[12] = 0x11;
        let short_block = v2(1, 0x21, &body);
        for (b, says) in [
            (bad_version, "version 1"),
            (v2(2, 0x11, &body), "command 2"),
            (v2(1, 0x41, &body), "family 4"),
            (v2(1, 0x13, &body), "transport 3"),
            (short_block, "36 needed"),
        ] {
            match parse(&b) {
                Err(ParseError::Invalid(why)) => assert!(why.contains(says), "{why}"),
                other => panic!("{says}: {other:?}"),
            }
        }
    }

    /// Every prefix of a header is incomplete, and asks for no byte past the header.
    fn check_truncations(header: &[u8]) {
        for cut in 0..header.len() {
            match parse(&header[..cut]) {
                Err(ParseError::Incomplete { need }) => {
                    assert!(
                        need >= 1 && cut + need <= header.len(),
                        "cut {cut} need {need}"
                    )
                }
                other => panic!("cut {cut}: {other:?}"),
            }
        }
    }

    #[test]
    fn truncated_headers_are_incomplete_and_ask_no_more_than_they_hold() {
        check_truncations(b"PROXY TCP4 203.0.113.7 10.0.0.1 51234 2222\r\n");
        check_truncations(b"PROXY UNKNOWN\r\n");
        check_truncations(&v2(1, 0x11, &[1; 12]));
        check_truncations(&v2(0, 0x00, &[]));
    }

    #[test]
    fn the_reader_stops_at_the_header_and_times_out_on_silence() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut input: &[u8] = b"PROXY TCP4 1.2.3.4 5.6.7.8 9 10\r\nSSH-2.0-rest";
            let h = read_header(&mut input, Duration::from_secs(1))
                .await
                .unwrap();
            assert_eq!(
                h,
                Header::Proxied {
                    source: addr("1.2.3.4:9"),
                    destination: addr("5.6.7.8:10"),
                }
            );
            assert_eq!(input, b"SSH-2.0-rest");
            let mut ssh: &[u8] = b"SSH-2.0-OpenSSH\r\n";
            assert!(matches!(
                read_header(&mut ssh, Duration::from_secs(1)).await,
                Err(ReadError::Parse(_))
            ));
            let (mut silent, _keep) = tokio::io::duplex(64);
            let limit = Duration::from_millis(50);
            assert!(matches!(
                read_header(&mut silent, limit).await,
                Err(ReadError::Timeout(_))
            ));
        });
    }

    proptest! {
        #![proptest_config(crate::testing::proptest_config(2000))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn random_bytes_after_a_signature_never_panic(
            v1 in any::<bool>(),
            rest in proptest::collection::vec(any::<u8>(), 0..300),
        ) {
            let mut bytes = if v1 { V1_PREFIX.to_vec() } else { V2_SIGNATURE.to_vec() };
            bytes.extend_from_slice(&rest);
            match parse(&bytes) {
                Ok((_, used)) => prop_assert!(used <= bytes.len()),
                Err(ParseError::Incomplete { need }) => prop_assert!(need >= 1),
                Err(ParseError::Invalid(_)) => {}
            }
        }
    }
}
