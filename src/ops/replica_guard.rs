//! Replication never overwrites a copy with nothing (docs/operations.md,
//! "Replication (Litestream)", "A database that holds nothing is not
//! replicated over a replica").
//!
//! Litestream, started on a database it has never replicated while the
//! bucket holds a replica of a larger one, carries on from the bucket's
//! numbering with the database it has: the bucket's latest state becomes
//! that database. On a new host (the package's fresh database, an emptied
//! data directory) that is an empty site, and `restore --from-replica`
//! then brings back nothing. So before `serve` first starts Litestream it
//! looks here and, when it must, at the bucket, and refuses to replicate
//! when
//!
//! 1. the bucket's folder holds a replica (a Litestream file under
//!    `<path>/0000/ … 0009/`), and
//! 2. either an earlier start refused and the data directory still says so
//!    (the file [`REFUSED_FILE`]: a lead taken meanwhile does not make the
//!    database the bucket's), or Litestream has never replicated this
//!    database from here (no `.dealership.db-litestream/` beside it) and it
//!    holds nothing a site gathers: no cars and no leads (admin users do
//!    not count: `dealership setup --admin` makes one on a new host before
//!    the restore).
//!
//! `replica.allow_overwrite = true` or `serve --replica-overwrite`
//! replicates anyway. A restore (from the replica or an archive) moves the
//! file aside with the database it replaces. The site serves meanwhile:
//! the refusal is in its log, on the admin's system card (a problem) and in
//! `dealership check`; `/healthz` stays about serving.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rusqlite::{Connection, OpenFlags};
use tokio_util::sync::CancellationToken;

use super::bucket::Bucket;
use super::replica_state::{LOOK_EVERY, ReplicaMonitor};
use super::{DB_ENTRY, LITESTREAM_STATE};

/// In the data directory while replication is refused: what was said.
pub const REFUSED_FILE: &str = "replication-refused";

/// What the data directory shows at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Here {
    /// Litestream has replicated this database from here before.
    pub replicated_here: bool,
    /// The database holds no cars and no leads (or does not exist yet).
    pub holds_nothing: bool,
    /// An earlier start refused, and nothing replaced the database since.
    pub refused_before: bool,
}

impl Here {
    /// Whether the bucket must be looked at before replicating: only then
    /// can replicating replace its copy with nothing.
    pub fn at_risk(&self) -> bool {
        self.refused_before || (!self.replicated_here && self.holds_nothing)
    }
}

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Replicate,
    Refuse,
}

/// Whether the database at `path` holds no cars and no leads: what a new
/// installation's database holds. A database that cannot be read as ours
/// holds something.
pub fn holds_nothing(path: &Path) -> bool {
    if !path.exists() {
        return true;
    }
    let counted =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).and_then(|conn| {
            conn.query_row(
                "SELECT (SELECT count(*) FROM cars) + (SELECT count(*) FROM leads)",
                [],
                |r| r.get::<_, i64>(0),
            )
        });
    matches!(counted, Ok(0))
}

/// Looks at the data directory `data_dir`.
pub fn look_here(data_dir: &Path) -> Here {
    Here {
        replicated_here: data_dir.join(LITESTREAM_STATE).is_dir(),
        holds_nothing: holds_nothing(&data_dir.join(DB_ENTRY)),
        refused_before: data_dir.join(REFUSED_FILE).exists(),
    }
}

/// The verdict for what is here, whether the bucket holds a replica, and
/// whether the admin said to replicate anyway.
pub fn decide(here: Here, bucket_has_replica: bool, allow_overwrite: bool) -> Verdict {
    if !bucket_has_replica || allow_overwrite || !here.at_risk() {
        Verdict::Replicate
    } else {
        Verdict::Refuse
    }
}

/// Why replication is refused, for the log and `dealership check`.
pub fn refusal(target: &str, here: Here) -> String {
    let fresh = here.holds_nothing && !here.replicated_here;
    let why = if here.refused_before && !fresh {
        "an earlier start refused to replicate this database over it, and it has not been \
         restored since"
    } else {
        "the database here holds nothing (no cars, no leads) and was never replicated from here"
    };
    format!(
        "replication refused: the bucket {target} holds a replica of a site, and {why}; \
         replicating it would replace the bucket's copy. Restore first: dealership restore \
         --from-replica (stop the site, then: runuser -u dealership -- dealership --config \
         /etc/dealership/dealership.toml restore --from-replica; docs/operations.md, \"Restore \
         from the replica\"). To replace the bucket's copy instead: replica.allow_overwrite = \
         true, or serve --replica-overwrite once. The site serves meanwhile; nothing is \
         replicated"
    )
}

/// The same for the admin's system card and the self-check.
pub fn refusal_ru() -> String {
    "Репликация не запущена: в хранилище уже есть копия сайта, а база данных здесь пуста \
     (ни автомобилей, ни заявок) и ещё ни разу не отправлялась в хранилище; её отправка \
     заменила бы копию. Сначала восстановите данные из копии: dealership restore \
     --from-replica (docs/operations.md, «Restore from the replica»)"
        .to_string()
}

/// Keeps the refusal in the data directory, so that a lead taken meanwhile
/// does not make the next start replicate.
pub fn remember(data_dir: &Path, said: &str) -> anyhow::Result<()> {
    let path = data_dir.join(REFUSED_FILE);
    std::fs::write(&path, format!("{said}\n"))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Forgets an earlier refusal (replication allowed now).
pub fn forget(data_dir: &Path) {
    let _ = std::fs::remove_file(data_dir.join(REFUSED_FILE));
}

/// What `serve` saw at its start, before the site took a request (a lead
/// taken meanwhile does not make a new host's database the bucket's), and
/// the bucket to look at.
pub struct Guard {
    pub here: Here,
    pub allow_overwrite: bool,
    pub bucket: Bucket,
    pub data_dir: PathBuf,
}

impl Guard {
    /// Whether Litestream may start: at once when replicating cannot
    /// replace the bucket's copy with nothing, else once the bucket has
    /// been read (tried every [`LOOK_EVERY`] while it cannot be) and holds
    /// no replica. Refused, it says so (the log, `monitor`) and waits for
    /// `stop`.
    pub async fn cleared(&self, monitor: &ReplicaMonitor, stop: &CancellationToken) -> bool {
        if !self.here.at_risk() {
            return true;
        }
        if self.allow_overwrite {
            tracing::warn!(
                "replication: replicating this database even over a replica in the bucket {}, \
                 as told (replica.allow_overwrite or serve --replica-overwrite)",
                self.bucket.target()
            );
            forget(&self.data_dir);
            return true;
        }
        let mut waiting = false;
        loop {
            let why = match self.bucket.replicated().await {
                Ok(replicated) => match decide(self.here, replicated.last.is_some(), false) {
                    Verdict::Replicate => {
                        forget(&self.data_dir);
                        if waiting {
                            tracing::info!("replication: the bucket holds no replica; starting");
                        }
                        return true;
                    }
                    Verdict::Refuse => {
                        let said = refusal(self.bucket.target(), self.here);
                        tracing::error!("{said}");
                        if let Err(err) = remember(&self.data_dir, &said) {
                            tracing::warn!("replication: {err:#}");
                        }
                        monitor.litestream_up();
                        monitor.refuse(refusal_ru());
                        stop.cancelled().await;
                        return false;
                    }
                },
                Err(err) => err,
            };
            if !waiting {
                tracing::warn!(
                    "replication waits: the bucket {} cannot be read ({why:#}), so it cannot be \
                     told whether replicating this database, which holds nothing, would replace \
                     a replica there; trying again every {} s",
                    self.bucket.target(),
                    LOOK_EVERY.as_secs()
                );
                monitor.litestream_down(
                    "waiting to read the bucket before replicating a database that holds nothing",
                );
                waiting = true;
            }
            tokio::select! {
                () = tokio::time::sleep(LOOK_EVERY) => {}
                () = stop.cancelled() => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRESH: Here = Here {
        replicated_here: false,
        holds_nothing: true,
        refused_before: false,
    };

    #[test]
    fn only_a_database_that_holds_nothing_is_refused_over_a_replica() {
        assert_eq!(decide(FRESH, true, false), Verdict::Refuse);
        // Nothing in the bucket to replace.
        assert_eq!(decide(FRESH, false, false), Verdict::Replicate);
        // Told to.
        assert_eq!(decide(FRESH, true, true), Verdict::Replicate);
        // Restored (from the replica or an archive): it holds data.
        let restored = Here {
            holds_nothing: false,
            ..FRESH
        };
        assert_eq!(decide(restored, true, false), Verdict::Replicate);
        // A new site that replicates itself, restarted before its first car.
        let own = Here {
            replicated_here: true,
            ..FRESH
        };
        assert_eq!(decide(own, true, false), Verdict::Replicate);
        // Refused once, then a lead came: still refused.
        let refused = Here {
            holds_nothing: false,
            refused_before: true,
            ..FRESH
        };
        assert_eq!(decide(refused, true, false), Verdict::Refuse);
        assert!(refusal("s3 b/site", refused).contains("earlier start refused"));
        assert_eq!(decide(refused, false, false), Verdict::Replicate);
        assert_eq!(decide(refused, true, true), Verdict::Replicate);
        let said = refusal("s3 b/site", FRESH);
        assert!(said.contains("holds nothing (no cars, no leads)"), "{said}");
        assert!(said.contains("dealership restore --from-replica"), "{said}");
    }

    #[test]
    fn a_new_database_holds_nothing_until_a_lead_or_a_car() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DB_ENTRY);
        assert!(holds_nothing(&path));
        // The schema a new installation migrates to holds nothing.
        drop(crate::db::Db::open(&path).unwrap());
        assert!(holds_nothing(&path));
        let here = look_here(dir.path());
        assert!(here.at_risk(), "{here:?}");
        // One lead is something.
        for file in ["dealership.db", "dealership.db-wal", "dealership.db-shm"] {
            let _ = std::fs::remove_file(dir.path().join(file));
        }
        Connection::open(&path)
            .unwrap()
            .execute_batch(
                "CREATE TABLE cars (id INTEGER); CREATE TABLE leads (id INTEGER);
                 INSERT INTO leads VALUES (1);",
            )
            .unwrap();
        assert!(!holds_nothing(&path));
        assert!(!look_here(dir.path()).at_risk());
        remember(dir.path(), "refused").unwrap();
        assert!(look_here(dir.path()).at_risk());
        forget(dir.path());
        assert!(!look_here(dir.path()).at_risk());
        // Not our database: it holds something.
        std::fs::write(&path, "not a database").unwrap();
        assert!(!holds_nothing(&path));
    }
}
