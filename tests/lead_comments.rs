//! What the staff write on a lead (issue 25, `docs/leads.md` "Who answers
//! a lead"): whoever may open the lead reads and adds comments, a manager
//! only on their own and the unassigned; the text is checked; a comment
//! keeps its author's name and goes with its lead.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::TestApp;
use dealership::domain::lead_comments::{EMPTY, TOO_LONG};
use dealership::domain::roles::Role;
use serde_json::{Value, json};

async fn new_lead(app: &TestApp, name: &str) -> String {
    let answer = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": name, "phone": "89215551234", "consent": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    answer.json()["id"].as_str().unwrap().to_string()
}

async fn comment(app: &TestApp, cookie: &str, lead: &str, body: &str) -> common::Answer {
    app.admin_with(
        cookie,
        Method::POST,
        &format!("/api/leads/{lead}/comments"),
        Some(json!({ "body": body })),
    )
    .await
}

async fn comments(app: &TestApp, cookie: &str, lead: &str) -> Vec<(String, String)> {
    let answer = app
        .admin_with(
            cookie,
            Method::GET,
            &format!("/api/leads/{lead}/comments"),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["authorName"].as_str().unwrap().to_string(),
                c["body"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn managers_comment_on_their_own_and_unassigned_leads_only() {
    let app = TestApp::new();
    app.create_user("owner", Role::Owner);
    app.create_user("anna", Role::Manager);
    app.create_user("boris", Role::Manager);
    let owner = app.login_as("owner").await;
    let users = app
        .admin_with(&owner, Method::GET, "/api/admin/users", None)
        .await
        .json();
    let id = |login: &str| {
        let user = users
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["username"] == login);
        user.unwrap()["id"].as_str().unwrap().to_string()
    };
    let anna_id = id("anna");
    let renamed = app
        .admin_with(
            &owner,
            Method::PUT,
            &format!("/api/admin/users/{anna_id}"),
            Some(json!({"name": "Анна Петрова"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK);
    let anna = app.login_as("anna").await;
    let boris = app.login_as("boris").await;
    let lead = new_lead(&app, "Иван").await;
    let assigned = app
        .admin_with(
            &owner,
            Method::PUT,
            &format!("/api/leads/{lead}/assignee"),
            Some(json!({"assigneeId": anna_id})),
        )
        .await;
    assert_eq!(assigned.status, StatusCode::OK);

    let added = comment(
        &app,
        &anna,
        &lead,
        "  Перезвонила,\nдоговорились о визите  ",
    )
    .await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
    let added = added.json();
    assert_eq!(added["authorName"], "Анна Петрова");
    assert_eq!(added["authorId"], anna_id.as_str());
    assert_eq!(added["leadId"], lead.as_str());
    assert_eq!(added["body"], "Перезвонила,\nдоговорились о визите");
    let owners = comment(&app, &owner, &lead, "Предложить трейд-ин").await;
    assert_eq!(owners.status, StatusCode::CREATED);
    assert_eq!(owners.json()["authorName"], "owner");
    assert_eq!(
        comments(&app, &anna, &lead).await,
        [
            (
                "Анна Петрова".to_string(),
                "Перезвонила,\nдоговорились о визите".to_string()
            ),
            ("owner".to_string(), "Предложить трейд-ин".to_string()),
        ]
    );

    // Boris: another's lead, by either route.
    let path = format!("/api/leads/{lead}/comments");
    let read = app.admin_with(&boris, Method::GET, &path, None).await;
    assert_eq!(read.status, StatusCode::FORBIDDEN);
    let write = comment(&app, &boris, &lead, "Чужая").await;
    assert_eq!(write.status, StatusCode::FORBIDDEN);
    // An unassigned lead: he comments, and it stays unassigned.
    let free = new_lead(&app, "Пётр").await;
    assert_eq!(
        comment(&app, &boris, &free, "Не берёт трубку").await.status,
        StatusCode::CREATED
    );
    let free_lead = app
        .admin_with(&owner, Method::GET, &format!("/api/leads/{free}"), None)
        .await;
    assert_eq!(free_lead.json()["assigneeId"], Value::Null);
    // No such lead.
    let missing = comment(&app, &owner, "no-such-lead", "Текст").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    // The account goes: its comments keep the name.
    let deleted = app
        .admin_with(
            &owner,
            Method::DELETE,
            &format!("/api/admin/users/{anna_id}"),
            None,
        )
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.text());
    let kept = app
        .admin_with(&owner, Method::GET, &path, None)
        .await
        .json();
    assert_eq!(kept[0]["authorName"], "Анна Петрова");
    assert_eq!(kept[0]["authorId"], Value::Null);
    // The lead goes: its comments go with it.
    let gone = app
        .admin_with(&owner, Method::DELETE, &format!("/api/leads/{lead}"), None)
        .await;
    assert!(gone.status.is_success(), "{}", gone.text());
    assert_eq!(
        app.count("SELECT count(*) FROM lead_comments WHERE lead_id IS NOT NULL"),
        1
    );
}

#[tokio::test]
async fn a_comment_is_one_to_2000_characters() {
    let app = TestApp::new();
    app.create_admin();
    let owner = app.login().await;
    let lead = new_lead(&app, "Иван").await;
    for (body, message) in [
        ("", EMPTY),
        (" \n\t ", EMPTY),
        (&"ж".repeat(2001), TOO_LONG),
    ] {
        let answer = comment(&app, &owner, &lead, body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answer.json()["field"], "body");
        assert_eq!(answer.error(), message);
    }
    let longest = comment(&app, &owner, &lead, &"ж".repeat(2000)).await;
    assert_eq!(longest.status, StatusCode::CREATED, "{}", longest.text());
    assert_eq!(comments(&app, &owner, &lead).await.len(), 1);
    // Not JSON of the shape: refused as such.
    let wrong = app
        .admin_with(
            &owner,
            Method::POST,
            &format!("/api/leads/{lead}/comments"),
            Some(json!({"text": "x"})),
        )
        .await;
    assert!(wrong.status.is_client_error(), "{}", wrong.text());
    assert_eq!(comments(&app, &owner, &lead).await.len(), 1);
}
