//! Files a tool writes whole (weights, caches of solved or labelled
//! samples, merged self-play): made beside their final name and moved there
//! once complete, so that a stopped run never leaves a torn one and a
//! folder that cannot take the file fails before the work, not after it;
//! and sealed with a magic and a CRC-32 of everything before it, so that
//! damage is found when the file is read back.

use std::fs::Permissions;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// A file being made: its temporary twin exists from [`Pending::new`] on,
/// and becomes the file at [`Pending::commit`]; dropped before that, it
/// disappears and the file at the path is left as it was.
pub struct Pending {
    path: PathBuf,
    twin: NamedTempFile,
}

impl Pending {
    /// Makes the temporary twin of `path` in its folder.
    pub fn new(path: &str) -> io::Result<Pending> {
        let path = PathBuf::from(path);
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        // The OS's cause alone: the caller names the file. A missing folder
        // is reported as the OS says it; tempfile's errors carry the twin's
        // name, so only their kind is kept.
        std::fs::metadata(&folder)?;
        let twin = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".partial")
            // What `File::create` gives under the usual umask.
            .permissions(Permissions::from_mode(0o644))
            .tempfile_in(folder)
            .map_err(|e| io::Error::new(e.kind(), e.kind().to_string()))?;
        Ok(Pending { path, twin })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to the twin and moves it to the final path.
    pub fn commit(mut self, bytes: &[u8]) -> io::Result<()> {
        self.twin.write_all(bytes)?;
        self.twin.as_file().sync_all()?;
        self.twin.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// A file that could not be made or written, and the OS's cause.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct FileError {
    pub path: String,
    pub source: io::Error,
}

impl Pending {
    /// [`Pending::new`], its error naming the file.
    pub fn start(path: &str) -> Result<Pending, FileError> {
        Pending::new(path).map_err(|source| FileError {
            path: path.into(),
            source,
        })
    }

    /// [`Pending::commit`], its error naming the file.
    pub fn finish(self, bytes: &[u8]) -> Result<(), FileError> {
        let path = self.path().to_string_lossy().into_owned();
        self.commit(bytes)
            .map_err(|source| FileError { path, source })
    }
}

/// Why a sealed file could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("not in the {kind} format, or in an older one (no {} header)", String::from_utf8_lossy(.magic).trim_end_matches('\0'))]
    Magic { kind: &'static str, magic: [u8; 8] },
    #[error("damaged {kind} file (its checksum fails)")]
    Checksum { kind: &'static str },
}

/// `magic`, `body` and the CRC-32 of both.
pub fn seal(magic: &[u8; 8], body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 12);
    out.extend_from_slice(magic);
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The body of what [`seal`] wrote with `magic`, a file of `kind`.
pub fn unseal<'a>(
    kind: &'static str,
    magic: &[u8; 8],
    bytes: &'a [u8],
) -> Result<&'a [u8], SealError> {
    if !bytes.starts_with(magic) {
        return Err(SealError::Magic {
            kind,
            magic: *magic,
        });
    }
    let Some(split) = bytes.len().checked_sub(4).filter(|&s| s >= magic.len()) else {
        return Err(SealError::Checksum { kind });
    };
    let (sealed, crc) = bytes.split_at(split);
    if crc32fast::hash(sealed).to_le_bytes() != crc {
        return Err(SealError::Checksum { kind });
    }
    Ok(&sealed[magic.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flipped_byte_and_cut_is_found() {
        let sealed = seal(b"TESTMAG1", b"some body bytes");
        assert_eq!(
            unseal("test", b"TESTMAG1", &sealed),
            Ok(&b"some body bytes"[..])
        );
        for i in 0..sealed.len() {
            for bit in 0..8 {
                let mut bad = sealed.clone();
                bad[i] ^= 1 << bit;
                assert!(
                    unseal("test", b"TESTMAG1", &bad).is_err(),
                    "byte {i} bit {bit}"
                );
            }
            assert!(
                unseal("test", b"TESTMAG1", &sealed[..i]).is_err(),
                "cut at {i}"
            );
        }
    }

    #[test]
    fn a_pending_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.bin");
        let path = path.to_str().unwrap();
        std::fs::write(path, b"old").unwrap();
        drop(Pending::new(path).unwrap());
        assert_eq!(std::fs::read(path).unwrap(), b"old");
        Pending::new(path).unwrap().commit(b"new").unwrap();
        assert_eq!(std::fs::read(path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no-such-folder/w.bin");
        assert!(Pending::new(missing.to_str().unwrap()).is_err());
    }
}
