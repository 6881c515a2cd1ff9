//! Which capability each admin route needs (`docs/admin.md`, "Roles"). The
//! admin middleware looks every request up here by its route's path and
//! method; a route missing from the table is refused to everyone, and the
//! route-by-role test (`tests/roles.rs`) fails for it, so each new route gets
//! a decision.

use axum::http::Method;

use crate::domain::roles::Capability;

/// `(method, route path as the router spells it, capability)`.
pub const ROUTES: &[(&str, &str, Capability)] = {
    use Capability::*;
    &[
        // Oneself.
        ("GET", "/api/admin/me", Staff),
        ("PUT", "/api/admin/me/password", Staff),
        // Figures.
        ("GET", "/api/admin/dashboard", Figures),
        ("GET", "/api/admin/checks", Figures),
        ("GET", "/api/admin/response-times", Figures),
        // The catalogue and content, read as the admin panel shows them.
        ("GET", "/api/admin/cars", CatalogueRead),
        ("GET", "/api/admin/cars/{id}", CatalogueRead),
        ("GET", "/api/admin/cars/{id}/left-out", CatalogueRead),
        ("GET", "/api/admin/salons", Staff),
        ("GET", "/api/admin/feeds/left-out", CatalogueRead),
        ("GET", "/api/admin/cars/{id}/marketplaces", CatalogueRead),
        ("GET", "/api/admin/marketplaces/refused", CatalogueRead),
        ("GET", "/api/admin/marketplaces/quiet", CatalogueRead),
        ("GET", "/api/admin/brands", CatalogueRead),
        ("GET", "/api/admin/price-changes", CatalogueRead),
        ("GET", "/api/admin/reviews", CatalogueRead),
        ("GET", "/api/admin/promotions", CatalogueRead),
        ("GET", "/api/admin/partner-banks", CatalogueRead),
        ("GET", "/api/admin/credit-programs", CatalogueRead),
        // ... and changed.
        ("POST", "/api/cars", CatalogueWrite),
        ("PUT", "/api/cars/{id}", CatalogueWrite),
        ("DELETE", "/api/cars/{id}", CatalogueWrite),
        ("PUT", "/api/admin/cars/{id}/salon", CatalogueWrite),
        ("PUT", "/api/cars/prices/bulk", CatalogueWrite),
        ("POST", "/api/admin/cars/publication", CatalogueWrite),
        ("POST", "/api/cars/prices/bulk/{id}/undo", CatalogueWrite),
        ("POST", "/api/brands", CatalogueWrite),
        ("PUT", "/api/brands/{id}", CatalogueWrite),
        ("DELETE", "/api/brands/{id}", CatalogueWrite),
        ("POST", "/api/reviews", CatalogueWrite),
        ("PUT", "/api/reviews/{id}", CatalogueWrite),
        ("PUT", "/api/reviews/{id}/approve", CatalogueWrite),
        ("DELETE", "/api/reviews/{id}", CatalogueWrite),
        ("POST", "/api/promotions", CatalogueWrite),
        ("PUT", "/api/promotions/{id}", CatalogueWrite),
        ("DELETE", "/api/promotions/{id}", CatalogueWrite),
        ("POST", "/api/partner-banks", CatalogueWrite),
        ("PUT", "/api/partner-banks/{id}", CatalogueWrite),
        ("DELETE", "/api/partner-banks/{id}", CatalogueWrite),
        ("POST", "/api/body-types", CatalogueWrite),
        ("PUT", "/api/body-types/{bodyType}", CatalogueWrite),
        ("DELETE", "/api/body-types/{bodyType}", CatalogueWrite),
        ("POST", "/api/admin/credit-programs", CatalogueWrite),
        ("PUT", "/api/admin/credit-programs/{id}", CatalogueWrite),
        ("DELETE", "/api/admin/credit-programs/{id}", CatalogueWrite),
        ("POST", "/api/objects/upload", CatalogueWrite),
        // A partial change of the settings: banners for an editor, anything
        // for an owner (the handler refuses other fields without `Settings`).
        ("PUT", "/api/settings", Banners),
        // Imports and the parser.
        ("GET", "/api/admin/imports", Imports),
        ("POST", "/api/admin/imports", Imports),
        ("GET", "/api/admin/imports/{id}", Imports),
        ("GET", "/api/admin/imports/{id}/items", Imports),
        ("DELETE", "/api/admin/imports/{id}", Imports),
        ("POST", "/api/admin/imports/{id}/apply", Imports),
        ("PUT", "/api/admin/imports/{id}/condition", Imports),
        ("GET", "/api/admin/parser/settings", Imports),
        ("GET", "/api/admin/feeds", Imports),
        ("POST", "/api/admin/feeds", Imports),
        ("PUT", "/api/admin/feeds/{id}", Imports),
        ("DELETE", "/api/admin/feeds/{id}", Imports),
        ("PUT", "/api/admin/feeds/order", Imports),
        // Leads.
        ("GET", "/api/leads", Leads),
        ("GET", "/api/leads/{id}", Leads),
        ("PUT", "/api/leads/{id}/status", Leads),
        ("PUT", "/api/leads/{id}/assignee", Leads),
        ("GET", "/api/leads/{id}/comments", Leads),
        ("POST", "/api/leads/{id}/comments", Leads),
        ("GET", "/api/leads/{id}/calls", Leads),
        ("GET", "/api/admin/leads/{id}/deliveries", Leads),
        ("POST", "/api/admin/leads/{id}/deliveries/retry", Leads),
        // Settings and integrations.
        ("GET", "/api/admin/settings", Settings),
        ("POST", "/api/settings", Settings),
        ("POST", "/api/admin/salons", Settings),
        ("PUT", "/api/admin/salons/{id}", Settings),
        ("DELETE", "/api/admin/salons/{id}", Settings),
        ("POST", "/api/admin/settings/test-email", Settings),
        ("GET", "/api/admin/deliveries/failed", Settings),
        ("GET", "/api/admin/amocrm/status", Settings),
        ("GET", "/api/admin/amocrm/auth-url", Settings),
        ("POST", "/api/admin/amocrm/callback", Settings),
        ("POST", "/api/admin/amocrm/test", Settings),
        ("GET", "/api/admin/marketplaces/connections", Settings),
        ("POST", "/api/admin/marketplaces/{channel}/check", Settings),
        ("POST", "/api/admin/marketplaces/{channel}/sync", Settings),
        ("GET", "/api/admin/calls/providers", Settings),
        (
            "POST",
            "/api/admin/calls/providers/{provider}/check",
            Settings,
        ),
        (
            "POST",
            "/api/admin/calls/providers/{provider}/poll",
            Settings,
        ),
        // Personal data beyond a lead's card.
        ("DELETE", "/api/leads/{id}", PersonalData),
        ("POST", "/api/admin/personal-data/find", PersonalData),
        ("POST", "/api/admin/personal-data/erase", PersonalData),
        ("POST", "/api/admin/personal-data/export", PersonalData),
        ("GET", "/api/admin/personal-data/requests", PersonalData),
        ("POST", "/api/admin/personal-data/requests", PersonalData),
        (
            "POST",
            "/api/admin/personal-data/requests/{id}/answer",
            PersonalData,
        ),
        ("GET", "/api/admin/personal-data/acts", PersonalData),
        ("GET", "/api/admin/personal-data/acts/{id}", PersonalData),
        ("GET", "/api/admin/personal-data/retention", PersonalData),
        (
            "POST",
            "/api/admin/personal-data/retention/run",
            PersonalData,
        ),
        ("GET", "/api/admin/audit", PersonalData),
        ("GET", "/api/admin/saved-searches", PersonalData),
        ("GET", "/api/admin/visitor-mails", PersonalData),
        // The team.
        ("GET", "/api/admin/users", Users),
        ("POST", "/api/admin/users", Users),
        ("PUT", "/api/admin/users/{id}", Users),
        ("DELETE", "/api/admin/users/{id}", Users),
        ("POST", "/api/admin/users/{id}/password", Users),
    ]
};

/// What a user with a one-time password may do until they change it.
pub const BEFORE_PASSWORD_CHANGE: &[(&str, &str)] =
    &[("GET", "/api/admin/me"), ("PUT", "/api/admin/me/password")];

/// The capability a route needs; `None` for a route with no decision.
pub fn required(method: &Method, path: &str) -> Option<Capability> {
    // HEAD is answered by the GET route.
    let method = if method == Method::HEAD {
        "GET"
    } else {
        method.as_str()
    };
    ROUTES
        .iter()
        .find(|(m, p, _)| *m == method && *p == path)
        .map(|(_, _, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_is_decided_once() {
        let mut seen = std::collections::HashSet::new();
        for (method, path, _) in ROUTES {
            assert!(seen.insert((method, path)), "{method} {path} twice");
        }
        assert_eq!(
            required(&Method::HEAD, "/api/admin/me"),
            Some(Capability::Staff)
        );
        assert_eq!(required(&Method::GET, "/api/admin/nothing"), None);
    }
}
