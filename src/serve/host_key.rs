//! The server's host key: read from its file, or made (Ed25519) and written with mode 0600
//! on first start.

use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::keys::ssh_key::LineEnding;
use russh::keys::{HashAlg, PrivateKey};
use std::io::{Read, Write};
use std::path::Path;

/// The key in `path`, made there first when the file does not exist; with `true` when it
/// was made now.
pub fn load_or_create(path: &Path) -> Result<(PrivateKey, bool), String> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => {
            let key = PrivateKey::read_openssh_file(path)
                .map_err(|e| format!("{}: not an OpenSSH private key ({e})", path.display()))?;
            Ok((key, false))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = create(path)?;
            Ok((key, true))
        }
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

fn create(path: &Path) -> Result<PrivateKey, String> {
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut seed = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut seed))
        .map_err(|e| format!("/dev/urandom: {e}"))?;
    let key = PrivateKey::try_from(KeypairData::Ed25519(Ed25519Keypair::from_seed(&seed)))
        .map_err(|e| named(&e))?;
    let text = key.to_openssh(LineEnding::LF).map_err(|e| named(&e))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Made private from the start: never readable by others, even for a moment.
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(|e| named(&e))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| named(&e))?;
    Ok(key)
}

/// The key's fingerprint as OpenSSH prints it (`SHA256:...`).
pub fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_key_is_private_and_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys/host_ed25519");
        let (made, new) = load_or_create(&path).unwrap();
        assert!(new);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let (read, new) = load_or_create(&path).unwrap();
        assert!(!new);
        assert_eq!(fingerprint(&made), fingerprint(&read));
        assert!(fingerprint(&read).starts_with("SHA256:"));
    }

    #[test]
    fn a_file_that_is_no_key_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("junk");
        std::fs::write(&path, "not a key").unwrap();
        let e = load_or_create(&path).unwrap_err();
        assert!(
            e.contains("junk") && e.contains("not an OpenSSH private key"),
            "{e}"
        );
    }
}
