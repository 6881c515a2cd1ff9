use anyhow::Context;
use rusqlite::Connection;

mod embedded {
    refinery::embed_migrations!("migrations");
}

/// Applies pending migrations; refuses a database that a newer binary has
/// migrated past what this one knows.
pub fn migrate(conn: &mut Connection) -> anyhow::Result<()> {
    embedded::migrations::runner()
        .set_abort_missing(true)
        .set_abort_divergent(true)
        .run(conn).map_err(|e| {
        let text = e.to_string();
        if text.contains("missing") {
            anyhow::anyhow!(
                "the database was migrated by a newer version of dealership; upgrade the binary ({text})"
            )
        } else {
            anyhow::anyhow!("migration failed: {text}")
        }
    })?;
    conn.execute_batch("PRAGMA optimize;")
        .context("PRAGMA optimize")?;
    Ok(())
}
