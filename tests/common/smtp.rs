//! The real SMTP server of a test: Debian's python3-aiosmtpd writing each
//! message as JSON (`tests/fixtures/smtp_sink.py`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The real SMTP server of a test; stopped when dropped.
pub struct SmtpSink {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
}

impl SmtpSink {
    pub fn start(port: u16, dir: &Path) -> SmtpSink {
        std::fs::create_dir_all(dir).unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/smtp_sink.py");
        let mut child = Command::new("/usr/bin/python3")
            .arg(script)
            .arg(port.to_string())
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 with aiosmtpd (apt-get install python3-aiosmtpd)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP server did not start");
        SmtpSink {
            child,
            port,
            dir: dir.to_path_buf(),
        }
    }

    /// The messages received so far, oldest first.
    pub fn messages(&self) -> Vec<Value> {
        read_messages(&self.dir)
    }
}

pub fn read_messages(dir: &Path) -> Vec<Value> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json")
                        && !p.file_name().unwrap().to_string_lossy().starts_with('.')
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
