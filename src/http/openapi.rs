//! The OpenAPI document, built from the handlers' annotations by utoipa, so
//! the paths it lists are the paths the router serves.

use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "dealership",
        description = "JSON API of the dealership website: catalogue, content and visitor requests.",
    ),
    components(schemas(ApiErrorBody, ImageAnswer)),
    tags(
        (name = "cars"), (name = "brands"), (name = "settings"), (name = "reviews"),
        (name = "promotions"), (name = "banks"), (name = "leads"), (name = "saved-searches")
    )
)]
pub struct ApiDoc;

/// Every error answer.
#[derive(Serialize, ToSchema)]
pub struct ApiErrorBody {
    /// What went wrong, in Russian where a visitor reads it.
    pub error: String,
    /// The request field at fault, when one is.
    pub field: Option<String>,
}

/// An image URL (empty when there is none).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImageAnswer {
    pub image_url: String,
}

/// Who calls a group of routes, which decides the answers every operation of
/// the group can give besides its own (`common_answers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Anyone; no credentials are read.
    Public,
    /// The admin routes: credentials are checked (HTTP Basic or the session
    /// cookie) before the handler runs.
    Admin,
}

/// Adds to every operation of `doc` the answers that the layers and the
/// extractors give whatever the handler (`docs/api.md`, "Answers"),
/// unless the operation documents that status itself:
/// - a parameter (path or query) or a body: 400, the request cannot be read
///   (a malformed parameter or JSON, an unknown query parameter);
/// - a body: 413 (over the group's size limit), 415 (another content type),
///   and for a JSON body 409 (a duplicate, or a record another refers to:
///   `AppError`'s answer to a constraint of the database) and 422 (a field of
///   the wrong type or breaking a rule; `field` names it when one is at
///   fault);
/// - admin routes: 401 (no or wrong credentials), 403 (the role may not, a
///   blocked account, a cookie write from another site) and 429 (the login
///   or the address is locked out, or the password checks are busy).
///
/// Every such answer is an `ApiErrorBody`.
pub fn common_answers(doc: &mut utoipa::openapi::OpenApi, audience: Audience) {
    for item in doc.paths.paths.values_mut() {
        let path_params = item.parameters.as_ref().is_some_and(|p| !p.is_empty());
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
            &mut item.head,
            &mut item.options,
        ];
        for operation in operations.into_iter().flatten() {
            add_answers(operation, path_params, audience);
        }
    }
}

fn add_answers(
    operation: &mut utoipa::openapi::path::Operation,
    path_params: bool,
    audience: Audience,
) {
    let params = path_params || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
    let body = operation.request_body.as_ref();
    let json_body = body.is_some_and(|b| b.content.contains_key("application/json"));
    let mut answers: Vec<(&str, &str)> = Vec::new();
    if params || body.is_some() {
        answers.push((
            "400",
            "The request cannot be read: a malformed parameter or body",
        ));
    }
    if body.is_some() {
        answers.push(("413", "The body is larger than this route accepts"));
        answers.push(("415", "The body is not of the documented content type"));
    }
    if json_body {
        answers.push((
            "409",
            "Conflicts with stored data: a duplicate, or a record another refers to",
        ));
        answers.push((
            "422",
            "A field is of the wrong type or breaks a rule; `field` names it when one is at fault",
        ));
    }
    if audience == Audience::Admin {
        answers.push(("401", "No credentials, or wrong ones"));
        answers.push((
            "403",
            "The role may not do this, the account is blocked, or a cookie write came from another site",
        ));
        answers.push((
            "429",
            "Too many failed logins from this address or for this login, or the password checks are busy",
        ));
    }
    let responses = &mut operation.responses.responses;
    for (status, description) in answers {
        responses
            .entry(status.to_string())
            .or_insert_with(|| error_answer(description));
    }
}

fn error_answer(description: &str) -> utoipa::openapi::RefOr<utoipa::openapi::Response> {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ApiErrorBody")))
                .build(),
        )
        .build()
        .into()
}
