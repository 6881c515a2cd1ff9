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
