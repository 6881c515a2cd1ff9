//! The team in the admin (issue 25, `docs/admin.md` "The team"): the owner
//! adds members with an invitation link or a one-time password, changes
//! roles, blocks, resets and deletes; the last active owner stays.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::{ADMIN_PASSWORD, TestApp};
use dealership::domain::roles::Role;
use dealership::domain::staff::{INVITATION_GONE, LAST_OWNER, WRONG_CURRENT_PASSWORD};
use dealership::http::auth::{BLOCKED, CHANGE_PASSWORD_FIRST};
use serde_json::{Value, json};

/// An owner ("boss") logged in.
async fn owner(app: &TestApp) -> String {
    app.create_user("boss", Role::Owner);
    app.login_as("boss").await
}

fn token_of(answer: &Value) -> String {
    let url = answer["invitationUrl"].as_str().unwrap();
    assert!(
        url.starts_with("http://localhost:8080/admin/invitation/"),
        "{url}"
    );
    url.rsplit('/').next().unwrap().to_string()
}

async fn login(app: &TestApp, login: &str, password: &str) -> (StatusCode, String, Value) {
    let answer = app
        .post_json(
            "/api/admin/login",
            &json!({"login": login, "password": password}),
        )
        .await;
    let cookie = answer
        .headers
        .get(axum::http::header::SET_COOKIE)
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string())
        .unwrap_or_default();
    (answer.status, cookie, answer.json())
}

#[tokio::test]
async fn an_invited_manager_sets_a_password_once_and_logs_in() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    let added = app
        .admin_with(
            &boss,
            Method::POST,
            "/api/admin/users",
            Some(json!({"username": "ivan", "name": "Иван Петров", "role": "manager"})),
        )
        .await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
    let added = added.json();
    assert_eq!(added["user"]["role"], "manager");
    assert_eq!(added["user"]["name"], "Иван Петров");
    assert!(added["user"]["invitationExpiresAt"].is_string());
    let token = token_of(&added);
    // Only the token's hash is kept.
    assert_eq!(
        app.count(&format!(
            "SELECT count(*) FROM invitations WHERE token_hash = '{token}'"
        )),
        0
    );

    // The invited person cannot log in before setting a password.
    assert_eq!(
        login(&app, "ivan", "whatever-password").await.0,
        StatusCode::UNAUTHORIZED
    );
    let invitation = app.get(&format!("/api/invitations/{token}")).await;
    assert_eq!(invitation.status, StatusCode::OK);
    assert_eq!(
        invitation.json(),
        json!({"username": "ivan", "name": "Иван Петров"})
    );
    let short = app
        .post_json(
            &format!("/api/invitations/{token}"),
            &json!({"password": "short"}),
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(short.json()["field"], "password");
    let set = app
        .post_json(
            &format!("/api/invitations/{token}"),
            &json!({"password": "ivan-secret-1"}),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text());

    // Once only.
    let again = app
        .post_json(
            &format!("/api/invitations/{token}"),
            &json!({"password": "ivan-secret-2"}),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    assert_eq!(again.error(), INVITATION_GONE);
    assert_eq!(
        app.get(&format!("/api/invitations/{token}")).await.status,
        StatusCode::NOT_FOUND
    );

    let (status, cookie, me) = login(&app, "ivan", "ivan-secret-1").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["role"], "manager");
    assert_eq!(me["mustChangePassword"], false);
    let leads = app
        .admin_with(&cookie, Method::GET, "/api/leads", None)
        .await;
    assert_eq!(leads.status, StatusCode::OK);

    // The audit trail has the addition by the owner and the password by Ivan.
    let audit = app
        .admin_with(&boss, Method::GET, "/api/admin/audit?objectType=user", None)
        .await
        .json();
    let entries: Vec<(String, String)> = audit["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["username"].as_str().unwrap().to_string(),
                e["summary"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        entries.contains(&(
            "boss".into(),
            "Создана учётная запись «Иван Петров» (ivan): Менеджер по продажам (приглашение)"
                .into()
        )),
        "{entries:?}"
    );
    assert!(
        entries
            .iter()
            .any(|(who, what)| who == "ivan" && what.contains("по приглашению")),
        "{entries:?}"
    );
}

#[tokio::test]
async fn an_invitation_expires_after_a_day() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    let added = app
        .admin_with(
            &boss,
            Method::POST,
            "/api/admin/users",
            Some(json!({"username": "late", "role": "viewer"})),
        )
        .await
        .json();
    let token = token_of(&added);
    let expires = added["user"]["invitationExpiresAt"].as_str().unwrap();
    let created = added["user"]["createdAt"].as_str().unwrap();
    let hours = (chrono::DateTime::parse_from_rfc3339(expires).unwrap()
        - chrono::DateTime::parse_from_rfc3339(created).unwrap())
    .num_minutes();
    assert!(
        (24 * 60 - 1..=24 * 60 + 1).contains(&hours),
        "{hours} minutes"
    );
    // A day later (the stored expiry moved into the past).
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE invitations SET expires_at = '2000-01-01T00:00:00.000Z'",
            [],
        )
        .unwrap();
    let late = app
        .post_json(
            &format!("/api/invitations/{token}"),
            &json!({"password": "late-password"}),
        )
        .await;
    assert_eq!(late.status, StatusCode::NOT_FOUND);
    assert_eq!(late.error(), INVITATION_GONE);
    // The team screen still sees the link that ran out unused.
    let users = app
        .admin_with(&boss, Method::GET, "/api/admin/users", None)
        .await
        .json();
    let listed = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["username"] == "late");
    assert_eq!(
        listed.unwrap()["invitationExpiresAt"],
        "2000-01-01T00:00:00.000Z"
    );
    // The owner sends a new one; it works.
    let id = added["user"]["id"].as_str().unwrap();
    let reset = app
        .admin_with(
            &boss,
            Method::POST,
            &format!("/api/admin/users/{id}/password"),
            Some(json!({})),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.text());
    let token = token_of(&reset.json());
    // A one-time password given instead ends that link.
    let reset = app
        .admin_with(
            &boss,
            Method::POST,
            &format!("/api/admin/users/{id}/password"),
            Some(json!({"password": "temporary-2"})),
        )
        .await;
    assert_eq!(reset.json()["user"]["invitationExpiresAt"], Value::Null);
    assert_eq!(
        app.get(&format!("/api/invitations/{token}")).await.status,
        StatusCode::NOT_FOUND
    );
    let reset = app
        .admin_with(
            &boss,
            Method::POST,
            &format!("/api/admin/users/{id}/password"),
            Some(json!({})),
        )
        .await;
    let token = token_of(&reset.json());
    let set = app
        .post_json(
            &format!("/api/invitations/{token}"),
            &json!({"password": "late-password"}),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK);
}

#[tokio::test]
async fn a_one_time_password_opens_nothing_but_its_change() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    let added = app
        .admin_with(
            &boss,
            Method::POST,
            "/api/admin/users",
            Some(json!({"username": "olga", "role": "editor", "password": "temporary-1"})),
        )
        .await;
    assert_eq!(added.status, StatusCode::CREATED);
    assert_eq!(added.json()["invitationUrl"], Value::Null);
    let (status, cookie, me) = login(&app, "olga", "temporary-1").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["mustChangePassword"], true);
    let cars = app
        .admin_with(&cookie, Method::GET, "/api/admin/cars", None)
        .await;
    assert_eq!(cars.status, StatusCode::FORBIDDEN);
    assert_eq!(cars.error(), CHANGE_PASSWORD_FIRST);

    let wrong = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/admin/me/password",
            Some(json!({"currentPassword": "not-it-at-all", "password": "olga-own-pass"})),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        wrong.json(),
        json!({"error": WRONG_CURRENT_PASSWORD, "field": "currentPassword"})
    );
    let changed = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/admin/me/password",
            Some(json!({"currentPassword": "temporary-1", "password": "olga-own-pass"})),
        )
        .await;
    assert_eq!(changed.status, StatusCode::NO_CONTENT, "{}", changed.text());
    // The same session goes on, now with everything the role has.
    let cars = app
        .admin_with(&cookie, Method::GET, "/api/admin/cars", None)
        .await;
    assert_eq!(cars.status, StatusCode::OK);
    assert_eq!(
        login(&app, "olga", "temporary-1").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(login(&app, "olga", "olga-own-pass").await.0, StatusCode::OK);
}

#[tokio::test]
async fn the_last_active_owner_is_kept() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    let me = app
        .admin_with(&boss, Method::GET, "/api/admin/users", None)
        .await
        .json();
    let boss_id = me[0]["id"].as_str().unwrap().to_string();
    let path = format!("/api/admin/users/{boss_id}");
    for (method, body) in [
        (Method::PUT, Some(json!({"blocked": true}))),
        (Method::PUT, Some(json!({"role": "manager"}))),
        (Method::DELETE, None),
    ] {
        let answer = app.admin_with(&boss, method.clone(), &path, body).await;
        assert_eq!(answer.status, StatusCode::CONFLICT, "{method}");
        assert_eq!(answer.error(), LAST_OWNER);
    }

    // A second owner, blocked, does not count as active.
    let second = app
        .admin_with(
            &boss,
            Method::POST,
            "/api/admin/users",
            Some(json!({"username": "partner", "role": "owner", "password": "partner-pass"})),
        )
        .await
        .json();
    let second_id = second["user"]["id"].as_str().unwrap().to_string();
    let blocked = app
        .admin_with(
            &boss,
            Method::PUT,
            &format!("/api/admin/users/{second_id}"),
            Some(json!({"blocked": true})),
        )
        .await;
    assert_eq!(blocked.status, StatusCode::OK);
    assert!(blocked.json()["blockedAt"].is_string());
    let answer = app
        .admin_with(&boss, Method::PUT, &path, Some(json!({"role": "viewer"})))
        .await;
    assert_eq!(answer.status, StatusCode::CONFLICT);

    // Unblocked, the partner is an active owner: the first may step down.
    app.admin_with(
        &boss,
        Method::PUT,
        &format!("/api/admin/users/{second_id}"),
        Some(json!({"blocked": false})),
    )
    .await;
    let answer = app
        .admin_with(&boss, Method::PUT, &path, Some(json!({"role": "viewer"})))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["role"], "viewer");
    // And is a viewer at once: the team is no longer theirs.
    let list = app
        .admin_with(&boss, Method::GET, "/api/admin/users", None)
        .await;
    assert_eq!(list.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_blocked_or_reset_user_loses_their_sessions() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    app.create_user("anna", Role::Manager);
    let anna = app.login_as("anna").await;
    let list = app
        .admin_with(&boss, Method::GET, "/api/admin/users", None)
        .await
        .json();
    let anna_id = list
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["username"] == "anna")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();

    app.admin_with(
        &boss,
        Method::PUT,
        &format!("/api/admin/users/{anna_id}"),
        Some(json!({"blocked": true})),
    )
    .await;
    let refused = app
        .admin_with(&anna, Method::GET, "/api/admin/me", None)
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    // The right password learns of the block; a wrong one does not.
    let (status, _, body) = login(&app, "anna", ADMIN_PASSWORD).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["error"], BLOCKED);
    assert_eq!(
        login(&app, "anna", "wrong-password").await.0,
        StatusCode::UNAUTHORIZED
    );

    app.admin_with(
        &boss,
        Method::PUT,
        &format!("/api/admin/users/{anna_id}"),
        Some(json!({"blocked": false})),
    )
    .await;
    let (status, anna, _) = login(&app, "anna", ADMIN_PASSWORD).await;
    assert_eq!(status, StatusCode::OK);
    let reset = app
        .admin_with(
            &boss,
            Method::POST,
            &format!("/api/admin/users/{anna_id}/password"),
            Some(json!({"password": "fresh-temporary"})),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK);
    assert_eq!(reset.json()["user"]["mustChangePassword"], true);
    assert_eq!(
        app.admin_with(&anna, Method::GET, "/api/admin/me", None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );

    // Deleted, their deeds stay in the audit trail under their login.
    app.admin_with(
        &boss,
        Method::DELETE,
        &format!("/api/admin/users/{anna_id}"),
        None,
    )
    .await;
    assert_eq!(
        app.count("SELECT count(*) FROM users WHERE username = 'anna'"),
        0
    );
    assert!(
        app.count(
            "SELECT count(*) FROM audit_log WHERE object_type = 'user' AND summary LIKE '%anna%'"
        ) >= 4
    );
}

#[tokio::test]
async fn a_members_email_and_own_hours_are_checked_kept_and_audited() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    let hours = json!({"days": [{"open": "10:00", "close": "19:00"}, null, null, null, null, null,
                                {"open": "11:00", "close": "16:00"}]});
    let added = app
        .admin_with(
            &boss,
            Method::POST,
            "/api/admin/users",
            Some(
                json!({"username": "anna", "role": "manager", "password": "one-time-pass",
                        "email": " anna@salon.example ", "workSchedule": hours}),
            ),
        )
        .await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
    let user = &added.json()["user"];
    assert_eq!(user["email"], "anna@salon.example");
    assert_eq!(user["workSchedule"], hours);
    assert_eq!(user["openLeads"], 0);
    let path = format!("/api/admin/users/{}", user["id"].as_str().unwrap());

    // Refused, each at its field, and nothing changes.
    let refused = [
        (json!({"email": "anna@"}), "email", "Неверный формат email"),
        (
            json!({"workSchedule": {"days": [null, null]}}),
            "workSchedule",
            "График работы: нужно указать все семь дней недели",
        ),
        (
            json!({"workSchedule": {"days": [{"open": "19:00", "close": "10:00"},
                                               null, null, null, null, null, null]}}),
            "workSchedule",
            "Понедельник: время открытия должно быть раньше времени закрытия",
        ),
    ];
    for (body, field, message) in refused {
        let answer = app
            .admin_with(&boss, Method::PUT, &path, Some(body.clone()))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.json()["field"], field, "{body}");
        assert_eq!(answer.error(), message, "{body}");
    }
    let kept = app
        .admin_with(&boss, Method::GET, "/api/admin/users", None)
        .await;
    let kept = kept.json();
    let anna = kept
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["username"] == "anna");
    assert_eq!(anna.unwrap()["workSchedule"], hours);
    assert_eq!(anna.unwrap()["email"], "anna@salon.example");

    // Absent keeps; null goes back to the salon's hours; empty removes the
    // e-mail.
    let renamed = app
        .admin_with(&boss, Method::PUT, &path, Some(json!({"name": "Анна"})))
        .await;
    assert_eq!(renamed.json()["workSchedule"], hours);
    let reset = app
        .admin_with(
            &boss,
            Method::PUT,
            &path,
            Some(json!({"workSchedule": null, "email": ""})),
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.text());
    assert_eq!(reset.json()["workSchedule"], Value::Null);
    assert_eq!(reset.json()["email"], "");
    let audit = app
        .admin_with(&boss, Method::GET, "/api/admin/audit?objectType=user", None)
        .await;
    let entries = audit.json();
    let changes = entries["items"][0]["changes"].clone();
    assert_eq!(
        changes,
        json!([
            {"field": "email", "from": "anna@salon.example", "to": ""},
            {"field": "workSchedule",
             "from": "Пн 10:00–19:00, Вт выходной, Ср выходной, Чт выходной, Пт выходной, \
                      Сб выходной, Вс 11:00–16:00",
             "to": "как у салона"}
        ]),
        "{entries:#}"
    );
}

#[tokio::test]
async fn a_members_pbx_number_is_checked_kept_audited_and_rung_by_the_callback() {
    let app = TestApp::new();
    let boss = owner(&app).await;
    let added = app
        .admin_with(
            &boss,
            Method::POST,
            "/api/admin/users",
            Some(
                json!({"username": "ivan", "role": "manager", "password": "one-time-pass",
                        "pbxNumber": " 101 "}),
            ),
        )
        .await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
    let user = &added.json()["user"];
    assert_eq!(user["pbxNumber"], "101");
    let id = user["id"].as_str().unwrap().to_string();
    let path = format!("/api/admin/users/{id}");

    for bad in ["10a", "+", "sip:101", "12345678901234567890", "1+2"] {
        let answer = app
            .admin_with(&boss, Method::PUT, &path, Some(json!({"pbxNumber": bad})))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert_eq!(answer.json()["field"], "pbxNumber", "{bad}");
        assert_eq!(answer.error(), dealership::domain::staff::BAD_PBX_NUMBER);
    }
    // A phone as people write it is kept in digits.
    let changed = app
        .admin_with(
            &boss,
            Method::PUT,
            &path,
            Some(json!({"pbxNumber": "+7 (921) 555-01-02"})),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    assert_eq!(changed.json()["pbxNumber"], "+79215550102");
    let stored: String = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT pbx_number FROM users WHERE id = ?1", [&id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored, "+79215550102");
    let audit = app
        .admin_with(&boss, Method::GET, "/api/admin/audit?objectType=user", None)
        .await;
    let entries = audit.json();
    assert_eq!(
        entries["items"][0]["changes"],
        json!([{"field": "pbxNumber", "from": "101", "to": "+79215550102"}]),
        "{entries:#}"
    );
    // Empty removes it.
    let cleared = app
        .admin_with(&boss, Method::PUT, &path, Some(json!({"pbxNumber": ""})))
        .await;
    assert_eq!(cleared.json()["pbxNumber"], "");
}
