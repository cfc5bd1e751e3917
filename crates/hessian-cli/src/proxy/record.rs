//! `hessian proxy --record DIR`: every exchange as one line of `DIR/calls.jsonl` (the JSON that
//! `--json` prints, heads included, with the names of the body files), and each body's captured
//! bytes in a file of its own, `DIR/NNNNNN.request.bin` and `DIR/NNNNNN.reply.bin`: exactly the
//! message that `hessian decode`, `hessian dump` and `hessian load --call` read (for a Hessian
//! 2.1 referring message, `NNNNNN.request.plain.bin` too: the plain message it stands for).

use super::exchange::{Decoded, Exchange};
use crate::CliError;
use serde_json::{json, Value as Json};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes the exchanges into a directory.
pub struct Recorder {
    dir: PathBuf,
    index: BufWriter<File>,
}

impl Recorder {
    /// Creates `dir` if needed and `dir/calls.jsonl` in it; a directory that already holds a
    /// recording is refused (its body files would be overwritten).
    pub fn create(dir: &Path) -> Result<Recorder, CliError> {
        let io = |path: &Path, source| CliError::Io { path: path.display().to_string(), source };
        // the recording holds every argument and reply: a directory the proxy creates is its
        // user's alone (an existing one keeps its permissions)
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(|e| io(dir, e))?;
        let index_path = dir.join("calls.jsonl");
        let index = std::fs::OpenOptions::new().write(true).create_new(true).open(&index_path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                CliError::Usage(format!("{} already holds a recording: record into another directory", dir.display()))
            } else {
                io(&index_path, e)
            }
        })?;
        Ok(Recorder { dir: dir.to_path_buf(), index: BufWriter::new(index) })
    }

    /// Writes the bodies of `ex` and appends `summary` (with the body files' names) to the index.
    /// A Hessian 2.1 referring message is also written as the plain message it stands for
    /// (`NNNNNN.request.plain.bin`), which the other commands read without knowing its map.
    pub fn write(&mut self, ex: &Exchange, decoded: &Decoded, mut summary: Json) -> std::io::Result<()> {
        let plain = decoded.plain_messages();
        for ((side, capture), plain) in [("request", &ex.request), ("reply", &ex.reply)].into_iter().zip(plain) {
            if capture.total == 0 {
                continue;
            }
            let name = format!("{:06}.{side}.bin", ex.id);
            std::fs::write(self.dir.join(&name), &capture.data)?;
            summary[side]["file"] = json!(name);
            if let Some(plain) = plain {
                let name = format!("{:06}.{side}.plain.bin", ex.id);
                std::fs::write(self.dir.join(&name), plain)?;
                summary[side]["plain_file"] = json!(name);
            }
        }
        writeln!(self.index, "{summary}")?;
        self.index.flush()
    }
}
