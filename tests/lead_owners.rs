//! Leads belong to someone (issue 25, `docs/leads.md` "Who answers a
//! lead"): a manager sees their own and the unassigned leads, takes one by
//! answering it or by taking it, and is refused another's by any route; an
//! owner sees and assigns every lead.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::TestApp;
use dealership::domain::roles::Role;
use serde_json::{Value, json};

struct Team {
    owner: String,
    anna: String,
    boris: String,
    anna_id: String,
    boris_id: String,
    viewer_id: String,
}

async fn team(app: &TestApp) -> Team {
    app.create_user("owner", Role::Owner);
    app.create_user("anna", Role::Manager);
    app.create_user("boris", Role::Manager);
    app.create_user("vera", Role::Viewer);
    let owner = app.login_as("owner").await;
    let users = app
        .admin_with(&owner, Method::GET, "/api/admin/users", None)
        .await
        .json();
    let id = |login: &str| {
        users
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["username"] == login)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    Team {
        anna: app.login_as("anna").await,
        boris: app.login_as("boris").await,
        anna_id: id("anna"),
        boris_id: id("boris"),
        viewer_id: id("vera"),
        owner,
    }
}

async fn new_lead(app: &TestApp, name: &str) -> String {
    let answer = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": name, "phone": "89215551234", "consent": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let lead = answer.json();
    assert_eq!(lead["assigneeId"], Value::Null);
    lead["id"].as_str().unwrap().to_string()
}

async fn names(app: &TestApp, cookie: &str, query: &str) -> Vec<String> {
    let answer = app
        .admin_with(cookie, Method::GET, &format!("/api/leads{query}"), None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text());
    let mut names: Vec<String> = answer
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_manager_sees_their_own_and_the_unassigned_leads_only() {
    let app = TestApp::new();
    let t = team(&app).await;
    let first = new_lead(&app, "Первый").await;
    let second = new_lead(&app, "Второй").await;
    let third = new_lead(&app, "Третий").await;

    // Anna takes the first.
    let taken = app
        .admin_with(
            &t.anna,
            Method::PUT,
            &format!("/api/leads/{first}/assignee"),
            Some(json!({"assigneeId": t.anna_id})),
        )
        .await;
    assert_eq!(taken.status, StatusCode::OK, "{}", taken.text());
    assert_eq!(taken.json()["assigneeName"], "anna");
    assert!(taken.json()["assignedAt"].is_string());
    // The owner gives the second to Boris.
    let given = app
        .admin_with(
            &t.owner,
            Method::PUT,
            &format!("/api/leads/{second}/assignee"),
            Some(json!({"assigneeId": t.boris_id})),
        )
        .await;
    assert_eq!(given.status, StatusCode::OK);

    assert_eq!(names(&app, &t.anna, "").await, ["Первый", "Третий"]);
    // The counters count what each may see: Boris's lead is not in Anna's.
    let counters = |cookie: String| {
        let app = &app;
        async move {
            let d = app
                .admin_with(&cookie, Method::GET, "/api/admin/dashboard", None)
                .await
                .json();
            (
                d["leadsTotal"].clone(),
                d["leadsNew"].clone(),
                d["leadsToday"].clone(),
            )
        }
    };
    assert_eq!(
        counters(t.anna.clone()).await,
        (json!(2), json!(2), json!(2))
    );
    assert_eq!(
        counters(t.boris.clone()).await,
        (json!(2), json!(2), json!(2))
    );
    assert_eq!(
        counters(t.owner.clone()).await,
        (json!(3), json!(3), json!(3))
    );
    assert_eq!(names(&app, &t.anna, "?assignee=mine").await, ["Первый"]);
    assert_eq!(names(&app, &t.anna, "?assignee=none").await, ["Третий"]);
    assert_eq!(names(&app, &t.boris, "").await, ["Второй", "Третий"]);
    assert_eq!(
        names(&app, &t.owner, "").await,
        ["Второй", "Первый", "Третий"]
    );
    assert_eq!(
        names(&app, &t.owner, &format!("?assignee={}", t.boris_id)).await,
        ["Второй"]
    );

    // Every route of Anna's lead refuses Boris, even by its address.
    let forged = [
        (Method::GET, format!("/api/leads/{first}"), None),
        (
            Method::PUT,
            format!("/api/leads/{first}/status"),
            Some(json!({"status": "completed"})),
        ),
        (
            Method::PUT,
            format!("/api/leads/{first}/assignee"),
            Some(json!({"assigneeId": t.boris_id})),
        ),
        (
            Method::GET,
            format!("/api/admin/leads/{first}/deliveries"),
            None,
        ),
        (
            Method::POST,
            format!("/api/admin/leads/{first}/deliveries/retry"),
            None,
        ),
        (
            Method::GET,
            format!("/api/leads?assignee={}", t.anna_id),
            None,
        ),
    ];
    for (method, path, body) in forged {
        let answer = app.admin_with(&t.boris, method.clone(), &path, body).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(answer.error(), "Заявка закреплена за другим сотрудником");
    }
    let lead = app
        .admin_with(&t.anna, Method::GET, &format!("/api/leads/{first}"), None)
        .await
        .json();
    assert_eq!(lead["status"], "new");
    assert_eq!(lead["assigneeId"], t.anna_id.as_str());

    // A manager gives a lead to no one else: only to themselves.
    let pushed = app
        .admin_with(
            &t.anna,
            Method::PUT,
            &format!("/api/leads/{third}/assignee"),
            Some(json!({"assigneeId": t.boris_id})),
        )
        .await;
    assert_eq!(pushed.status, StatusCode::FORBIDDEN);

    // Boris answers the unassigned third: it is his from then on.
    let answered = app
        .admin_with(
            &t.boris,
            Method::PUT,
            &format!("/api/leads/{third}/status"),
            Some(json!({"status": "in_progress"})),
        )
        .await;
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.text());
    assert_eq!(answered.json()["assigneeId"], t.boris_id.as_str());
    assert_eq!(names(&app, &t.anna, "").await, ["Первый"]);
}

#[tokio::test]
async fn leads_go_only_to_active_staff_who_take_leads_and_each_move_is_audited() {
    let app = TestApp::new();
    let t = team(&app).await;
    let lead = new_lead(&app, "Клиент").await;
    let path = format!("/api/leads/{lead}/assignee");
    let to_viewer = app
        .admin_with(
            &t.owner,
            Method::PUT,
            &path,
            Some(json!({"assigneeId": t.viewer_id})),
        )
        .await;
    assert_eq!(to_viewer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(to_viewer.json()["field"], "assigneeId");
    for (who, id) in [("anna", &t.anna_id), ("boris", &t.boris_id)] {
        let answer = app
            .admin_with(
                &t.owner,
                Method::PUT,
                &path,
                Some(json!({"assigneeId": id})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{who}");
    }
    // Boris is blocked: nothing more goes to him.
    app.admin_with(
        &t.owner,
        Method::PUT,
        &format!("/api/admin/users/{}", t.boris_id),
        Some(json!({"blocked": true})),
    )
    .await;
    let to_blocked = app
        .admin_with(
            &t.owner,
            Method::PUT,
            &path,
            Some(json!({"assigneeId": t.boris_id})),
        )
        .await;
    assert_eq!(to_blocked.status, StatusCode::UNPROCESSABLE_ENTITY);
    let released = app
        .admin_with(
            &t.owner,
            Method::PUT,
            &path,
            Some(json!({"assigneeId": null})),
        )
        .await;
    assert_eq!(released.json()["assigneeId"], Value::Null);
    let again = app
        .admin_with(
            &t.owner,
            Method::PUT,
            &path,
            Some(json!({"assigneeId": t.boris_id})),
        )
        .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);

    let history = app
        .admin_with(
            &t.owner,
            Method::GET,
            &format!("/api/admin/audit?objectType=lead&objectId={lead}"),
            None,
        )
        .await
        .json();
    let summaries: Vec<&str> = history["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        summaries,
        [
            "Заявка «Клиент» снята с сотрудника",
            "Заявка «Клиент» передана: boris",
            "Заявка «Клиент» передана: anna",
        ]
    );
    // A deleted user's leads are unassigned, not lost.
    app.admin_with(
        &t.owner,
        Method::PUT,
        &path,
        Some(json!({"assigneeId": t.anna_id})),
    )
    .await;
    app.admin_with(
        &t.owner,
        Method::DELETE,
        &format!("/api/admin/users/{}", t.anna_id),
        None,
    )
    .await;
    let lead = app
        .admin_with(&t.owner, Method::GET, &format!("/api/leads/{lead}"), None)
        .await
        .json();
    assert_eq!(lead["assigneeId"], Value::Null);
}
