//! Staff roles and what each may do (`docs/admin.md`, "Roles"). A role is a
//! fixed set of capabilities; every admin route needs one capability
//! (`http::permissions`), so the server decides each request from this table.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

/// A staff member's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Everything: users, settings, integrations, imports, the system's state.
    Owner,
    /// Sales: leads (their own and the unassigned), the catalogue read-only,
    /// their own response times.
    Manager,
    /// Content: the catalogue, brands, reviews, promotions, banks, banners,
    /// body types and the parser; no leads, no personal data.
    Editor,
    /// Marketer or accountant: dashboards and figures; no personal data, no
    /// writes.
    Viewer,
}

/// Something a route needs. Capabilities are named in the API (`/api/admin/me`
/// lists the caller's), so screens show only what the role may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Capability {
    /// Being signed in: one's own account and session.
    Staff,
    /// The dashboard's counts, the self-checks, response times.
    Figures,
    /// Reading the catalogue and content as the admin panel shows it.
    CatalogueRead,
    /// Changing cars, prices, brands, body types, reviews, promotions, banks,
    /// credit programmes; uploading pictures.
    CatalogueWrite,
    /// Page banners (a part of the settings).
    Banners,
    /// Imports and the parser's schedule.
    Imports,
    /// Leads: reading them, their deliveries, changing their status.
    Leads,
    /// Settings, e-mail, integrations, legal texts.
    Settings,
    /// Personal data beyond leads: subscribers of saved searches, the audit
    /// trail.
    PersonalData,
    /// The team: staff accounts, their roles, blocks and passwords.
    Users,
}

impl Capability {
    /// Every capability, in the order the docs list them.
    pub const ALL: [Capability; 10] = [
        Capability::Staff,
        Capability::Figures,
        Capability::CatalogueRead,
        Capability::CatalogueWrite,
        Capability::Banners,
        Capability::Imports,
        Capability::Leads,
        Capability::Settings,
        Capability::PersonalData,
        Capability::Users,
    ];
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Owner, Role::Manager, Role::Editor, Role::Viewer];

    /// Whether this role has `capability`: the permission table.
    pub fn can(self, capability: Capability) -> bool {
        use Capability as C;
        match self {
            Role::Owner => true,
            Role::Manager => matches!(
                capability,
                C::Staff | C::Figures | C::CatalogueRead | C::Leads
            ),
            Role::Editor => matches!(
                capability,
                C::Staff
                    | C::Figures
                    | C::CatalogueRead
                    | C::CatalogueWrite
                    | C::Banners
                    | C::Imports
            ),
            Role::Viewer => matches!(capability, C::Staff | C::Figures | C::CatalogueRead),
        }
    }

    /// Whether the role sees every lead; the others with `Leads` see their
    /// own and the unassigned ones.
    pub fn sees_every_lead(self) -> bool {
        self == Role::Owner
    }

    /// Whether leads may be assigned to the role: those who answer them.
    pub fn takes_leads(self) -> bool {
        self.can(Capability::Leads)
    }

    /// The role's capabilities, in `Capability::ALL`'s order.
    pub fn capabilities(self) -> Vec<Capability> {
        Capability::ALL
            .into_iter()
            .filter(|c| self.can(*c))
            .collect()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Manager => "manager",
            Role::Editor => "editor",
            Role::Viewer => "viewer",
        }
    }

    /// The role's name on screens and in the audit trail.
    pub fn label(self) -> &'static str {
        match self {
            Role::Owner => "Владелец",
            Role::Manager => "Менеджер по продажам",
            Role::Editor => "Контент-менеджер",
            Role::Viewer => "Наблюдатель",
        }
    }

    pub fn parse(value: &str) -> AppResult<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == value)
            .ok_or_else(|| AppError::invalid("role", "Роль: owner, manager, editor или viewer"))
    }
}

impl rusqlite::types::FromSql for Role {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        Role::parse(text).map_err(|_| rusqlite::types::FromSqlError::InvalidType)
    }
}

impl rusqlite::types::ToSql for Role {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_can_everything_and_only_owners_see_settings_and_personal_data() {
        for c in Capability::ALL {
            assert!(Role::Owner.can(c), "{c:?}");
        }
        for role in [Role::Manager, Role::Editor, Role::Viewer] {
            assert!(!role.can(Capability::Settings));
            assert!(!role.can(Capability::PersonalData));
            assert!(role.can(Capability::Staff));
        }
        assert!(Role::Manager.can(Capability::Leads));
        assert!(!Role::Editor.can(Capability::Leads));
        assert!(!Role::Viewer.can(Capability::Leads));
        assert!(!Role::Viewer.can(Capability::CatalogueWrite));
        assert!(!Role::Manager.can(Capability::CatalogueWrite));
    }

    #[test]
    fn roles_read_back_from_their_names() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()).unwrap(), role);
        }
        assert!(Role::parse("admin").is_err());
    }
}
