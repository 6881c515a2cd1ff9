//! How replication stands (docs/operations.md, "Replication (Litestream)",
//! "Seen and checked"): the last transaction in the bucket and its age, the
//! last snapshot, how long the oldest change not in the bucket yet has
//! waited, the pictures waiting, and whether Litestream runs. `serve` looks
//! every [`LOOK_EVERY`] (the job `replica status`) and keeps the answer in
//! [`ReplicaMonitor`] for the admin's system card and the self-checks;
//! `dealership check` looks once.
//!
//! Replication is in trouble (a problem, red) when the bucket cannot be
//! read with the key, when a change has waited more than [`LAG_LIMIT`] to
//! reach it, or when Litestream has not run for that long. None of this
//! touches `/healthz`: the site serves whatever the replica does.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::bucket::{Bucket, Replicated, ltx_range};
use crate::media::uploads::QueueState;

/// A change waiting longer than this to reach the bucket is a problem.
pub const LAG_LIMIT: Duration = Duration::from_secs(5 * 60);
/// How often `serve` looks.
pub const LOOK_EVERY: Duration = Duration::from_secs(30);

/// Replication's state, as the system card shows it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaStatus {
    /// The storage: `endpoint bucket/folder`.
    pub target: String,
    /// When this was looked at (RFC 3339).
    pub checked_at: String,
    /// Why the bucket could not be read, when it could not.
    #[schema(required = true)]
    pub bucket_error: Option<String>,
    /// The last transaction in the bucket (Litestream's TXID, 16 hex
    /// digits) and when it was uploaded; null: none yet (or unknown).
    #[schema(required = true)]
    pub replicated_txid: Option<String>,
    #[schema(required = true)]
    pub replicated_at: Option<String>,
    /// When the newest snapshot was uploaded.
    #[schema(required = true)]
    pub snapshot_at: Option<String>,
    /// The last transaction Litestream has taken from the database here.
    #[schema(required = true)]
    pub local_txid: Option<String>,
    /// How long the oldest change not in the bucket yet has waited, in
    /// seconds: 0 when the bucket has everything; null when unknown.
    #[schema(required = true)]
    pub lag_seconds: Option<i64>,
    /// Pictures waiting to be copied to the bucket, and of them those whose
    /// last try failed, with the latest failure.
    pub media_pending: i64,
    pub media_failing: i64,
    #[schema(required = true)]
    pub media_last_error: Option<String>,
    /// When a picture was last copied.
    #[schema(required = true)]
    pub media_copied_at: Option<String>,
    /// Why Litestream does not run now, when it does not (`serve` only).
    #[schema(required = true)]
    pub litestream_down: Option<String>,
    /// What is wrong, in Russian (a self-check shows each); empty when
    /// replication is well.
    pub problems: Vec<String>,
}

/// What `serve` knows of replication: the last look, and whether its
/// Litestream runs (told by the supervisor, `super::replica`).
#[derive(Debug, Default)]
pub struct ReplicaMonitor {
    last: Mutex<Option<ReplicaStatus>>,
    /// Since when and why Litestream does not run.
    litestream_down: Mutex<Option<(DateTime<Utc>, String)>>,
    /// Why replication is refused, in Russian (`super::replica_guard`).
    refused: Mutex<Option<String>>,
}

impl ReplicaMonitor {
    /// The last look; None without replication (or before the first look).
    pub fn last(&self) -> Option<ReplicaStatus> {
        lock(&self.last).clone()
    }

    pub fn set(&self, status: ReplicaStatus) {
        *lock(&self.last) = Some(status);
    }

    /// Litestream ended (`why`); it stays down until [`Self::litestream_up`].
    pub fn litestream_down(&self, why: &str) {
        let mut down = lock(&self.litestream_down);
        if down.is_none() {
            *down = Some((Utc::now(), why.to_string()));
        } else if let Some((_, last_why)) = down.as_mut() {
            *last_why = why.to_string();
        }
    }

    pub fn litestream_up(&self) {
        *lock(&self.litestream_down) = None;
    }

    /// Since when and why Litestream does not run.
    pub fn litestream_down_since(&self) -> Option<(DateTime<Utc>, String)> {
        lock(&self.litestream_down).clone()
    }

    /// Replication is refused (`super::replica_guard`): `why`, in Russian.
    pub fn refuse(&self, why: String) {
        *lock(&self.refused) = Some(why);
    }

    /// Why replication is refused, when it is.
    pub fn refused(&self) -> Option<String> {
        lock(&self.refused).clone()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One of Litestream's files beside the database, not uploaded or kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalLtx {
    pub last_txid: u64,
    pub written_at: DateTime<Utc>,
}

/// Litestream's own folder beside the database `dealership.db`.
pub fn litestream_folder(data_dir: &Path) -> std::path::PathBuf {
    data_dir.join(super::LITESTREAM_STATE)
}

/// Litestream's level-0 files in the data directory: what it took from the
/// database, uploaded or not yet.
pub fn local_ltx(data_dir: &Path) -> Vec<LocalLtx> {
    let folder = litestream_folder(data_dir).join("ltx").join("0");
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let (_, last_txid) = ltx_range(entry.file_name().to_str()?)?;
            let written_at = entry.metadata().ok()?.modified().ok()?;
            Some(LocalLtx {
                last_txid,
                written_at: written_at.into(),
            })
        })
        .collect()
}

/// How long the oldest change not in the bucket has waited at `now`: 0
/// when every local file is in it.
pub fn lag(local: &[LocalLtx], replicated: &Replicated, now: DateTime<Utc>) -> Duration {
    let in_bucket = replicated.last.map_or(0, |(txid, _)| txid);
    local
        .iter()
        .filter(|file| file.last_txid > in_bucket)
        .map(|file| file.written_at)
        .min()
        .map_or(Duration::ZERO, |oldest| {
            (now - oldest).to_std().unwrap_or(Duration::ZERO)
        })
}

fn txid(txid: u64) -> String {
    format!("{txid:016x}")
}

fn time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// "N мин" / "N ч M мин" / "N с".
pub fn ru_duration(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match seconds {
        0..60 => format!("{seconds} с"),
        60..3600 => format!("{} мин", seconds / 60),
        _ => format!("{} ч {} мин", seconds / 3600, seconds % 3600 / 60),
    }
}

/// Looks at the bucket and the data directory now; `refused`: why
/// replication is refused, when it is (a problem, first).
pub async fn look(
    bucket: &Bucket,
    data_dir: &Path,
    queue: QueueState,
    litestream_down: Option<(DateTime<Utc>, String)>,
    refused: Option<String>,
) -> ReplicaStatus {
    let now = Utc::now();
    let replicated = bucket.replicated().await;
    let local = local_ltx(data_dir);
    let local_txid = local.iter().map(|f| f.last_txid).max();
    let mut problems: Vec<String> = refused.into_iter().collect();
    let (bucket_error, lag_seconds, replicated) = match replicated {
        Ok(replicated) => {
            let lag = lag(&local, &replicated, now);
            if lag > LAG_LIMIT {
                problems.push(format!(
                    "Репликация отстаёт: изменения базы данных ждут отправки в хранилище {}",
                    ru_duration(lag)
                ));
            }
            (
                None,
                Some(i64::try_from(lag.as_secs()).unwrap_or(i64::MAX)),
                replicated,
            )
        }
        Err(err) => {
            let why = format!("{err:#}");
            problems.push(format!("Хранилище реплики недоступно: {why}"));
            (Some(why), None, Replicated::default())
        }
    };
    if let Some((since, why)) = &litestream_down {
        let down = (now - *since).to_std().unwrap_or(Duration::ZERO);
        if down > LAG_LIMIT {
            problems.push(format!(
                "Litestream не работает {}: {why}",
                ru_duration(down)
            ));
        }
    }
    ReplicaStatus {
        target: bucket.target().to_string(),
        checked_at: time(now),
        bucket_error,
        replicated_txid: replicated.last.map(|(id, _)| txid(id)),
        replicated_at: replicated.last.map(|(_, at)| time(at)),
        snapshot_at: replicated.snapshot.map(|(_, at)| time(at)),
        local_txid: local_txid.map(txid),
        lag_seconds,
        media_pending: queue.pending,
        media_failing: queue.failing,
        media_last_error: queue.last_error,
        media_copied_at: queue.last_upload_at,
        litestream_down: litestream_down.map(|(_, why)| why),
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lag_is_the_age_of_the_oldest_change_not_in_the_bucket() {
        let at = |s: i64| DateTime::from_timestamp(s, 0).unwrap_or_default();
        let local = [
            LocalLtx {
                last_txid: 4,
                written_at: at(100),
            },
            LocalLtx {
                last_txid: 5,
                written_at: at(200),
            },
            LocalLtx {
                last_txid: 6,
                written_at: at(300),
            },
        ];
        let replicated = |txid| Replicated {
            last: Some((txid, at(150))),
            snapshot: None,
        };
        assert_eq!(
            lag(&local, &replicated(4), at(500)),
            Duration::from_secs(300)
        );
        assert_eq!(lag(&local, &replicated(6), at(500)), Duration::ZERO);
        assert_eq!(
            lag(&local, &Replicated::default(), at(500)),
            Duration::from_secs(400)
        );
        assert_eq!(lag(&[], &replicated(1), at(500)), Duration::ZERO);
    }

    #[test]
    fn durations_read_as_russian() {
        assert_eq!(ru_duration(Duration::from_secs(42)), "42 с");
        assert_eq!(ru_duration(Duration::from_secs(6 * 60 + 5)), "6 мин");
        assert_eq!(
            ru_duration(Duration::from_secs(3 * 3600 + 120)),
            "3 ч 2 мин"
        );
    }
}
