//! What an import run is and reports (the API shows these): its trigger,
//! status and source, the counts, and the preview's report of new, changed,
//! unchanged and gone cars with the rows' errors and warnings.

use crate::domain::cars::{BodyType, CarStatus};
use crate::domain::money::Money;
use crate::domain::text_enum;
use crate::parser::feed::{FeedFormat, RowError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

text_enum!(
    /// manual | schedule
    RunTrigger { Manual = "manual", Schedule = "schedule" }
);
text_enum!(
    /// preview | applied | discarded | failed
    RunStatus { Preview = "preview", Applied = "applied", Discarded = "discarded", Failed = "failed" }
);
text_enum!(
    /// url | file
    SourceKind { Url = "url", File = "file" }
);

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RunSource {
    pub kind: SourceKind,
    /// The URL or the file name.
    pub name: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct RunCounts {
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub gone: usize,
    /// Cars that left this feed and stay on the site (another feed lists
    /// them).
    #[serde(default)]
    pub left: usize,
    pub errors: usize,
    /// Cars that import with unstated fields.
    #[serde(default)]
    pub warnings: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct PhotoProgress {
    pub total: i64,
    pub done: i64,
    pub failed: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRunSummary {
    pub id: String,
    /// The feed the run is of (none: the feed was deleted since).
    pub feed_id: Option<String>,
    pub feed_name: Option<String>,
    /// The condition the admin set for the whole preview (none: each
    /// car's own, from its record or the feed's default).
    pub condition: Option<CarStatus>,
    pub created_at: String,
    pub finished_at: Option<String>,
    pub trigger: RunTrigger,
    pub source: RunSource,
    pub format: Option<FeedFormat>,
    pub status: RunStatus,
    /// Why the run failed (fetch, size, XML).
    pub error: Option<String>,
    pub counts: RunCounts,
    pub photos: PhotoProgress,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NewCar {
    pub key: String,
    pub external_id: Option<String>,
    pub vin: Option<String>,
    pub title: String,
    pub price: Money,
    pub status: CarStatus,
}

/// Another feed that lists the same car, and whose values win.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AlsoIn {
    pub feed_id: String,
    pub feed_name: String,
    /// True: that feed is higher in the list, its values win for the
    /// fields it states; false: this feed's win.
    pub wins: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct FieldChange {
    /// The API's name of the field (`price`, `mileage`, `images`, ...).
    pub field: String,
    /// Its Russian name ("Цена", "Пробег", "Фото").
    pub label: String,
    pub old: String,
    pub new: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ChangedCar {
    pub key: String,
    pub car_id: String,
    pub slug: String,
    pub title: String,
    pub changes: Vec<FieldChange>,
    /// Other feeds listing this car.
    #[serde(default)]
    pub also_in: Vec<AlsoIn>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UnchangedCar {
    pub key: String,
    pub car_id: String,
    pub slug: String,
    pub title: String,
    /// Other feeds listing this car.
    #[serde(default)]
    pub also_in: Vec<AlsoIn>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GoneCar {
    pub car_id: String,
    pub slug: String,
    pub title: String,
    pub external_id: Option<String>,
    pub vin: Option<String>,
    /// For a car that left this feed but stays on the site: the feed that
    /// still lists it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stays_in: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PhotoError {
    pub car_title: String,
    pub url: String,
    pub error: String,
}

/// A car that imports with a field its feed leaves unstated.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct RowWarning {
    pub row: u32,
    pub line: u32,
    pub key: String,
    pub title: String,
    /// drivetrain | engine | power | trim | vin | discount | status |
    /// mileage
    pub field: String,
    pub message: String,
}

/// A body type the feed names that the dealership's list lacks: created on
/// apply.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NewBodyType {
    pub body_type: BodyType,
    pub label_plural: String,
    pub label_single: String,
}

/// What a feed would do to the catalogue.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Report {
    pub new: Vec<NewCar>,
    pub changed: Vec<ChangedCar>,
    pub unchanged: Vec<UnchangedCar>,
    /// Will be unpublished (never deleted): this feed brought them, no
    /// longer lists them, and no other feed does.
    pub gone: Vec<GoneCar>,
    /// Leave this feed but stay on the site: another feed lists them.
    pub left: Vec<GoneCar>,
    pub errors: Vec<RowError>,
    /// Brands the feed names that the catalogue lacks: created on apply.
    pub new_brands: Vec<String>,
    /// Body types the feed names that the list lacks: created on apply.
    pub new_body_types: Vec<NewBodyType>,
    /// Cars that import with unstated fields (not errors).
    pub warnings: Vec<RowWarning>,
}

text_enum!(
    /// new | changed | unchanged | gone | left | errors | warnings |
    /// photoErrors: a list of a run's report, paged by
    /// `GET /api/admin/imports/{id}/items`.
    ReportList {
        New = "new",
        Changed = "changed",
        Unchanged = "unchanged",
        Gone = "gone",
        Left = "left",
        Errors = "errors",
        Warnings = "warnings",
        PhotoErrors = "photoErrors"
    }
);

/// The items a run's answer carries of each list: the rest are paged
/// (`docs/parser.md`, "Preview and apply").
pub const FIRST_ITEMS: usize = 100;
/// The most items one page of a list gives.
pub const MAX_PAGE_ITEMS: usize = 500;

/// How many items each list of a run's report holds (a warning is one line,
/// a car may have several; `counts.warnings` counts the cars).
#[derive(Debug, Clone, Default, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ListSizes {
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub gone: usize,
    pub left: usize,
    pub errors: usize,
    pub warnings: usize,
    pub photo_errors: usize,
}

impl ListSizes {
    pub fn of(&self, list: ReportList) -> usize {
        match list {
            ReportList::New => self.new,
            ReportList::Changed => self.changed,
            ReportList::Unchanged => self.unchanged,
            ReportList::Gone => self.gone,
            ReportList::Left => self.left,
            ReportList::Errors => self.errors,
            ReportList::Warnings => self.warnings,
            ReportList::PhotoErrors => self.photo_errors,
        }
    }

    pub(super) fn set(&mut self, list: ReportList, size: usize) {
        *match list {
            ReportList::New => &mut self.new,
            ReportList::Changed => &mut self.changed,
            ReportList::Unchanged => &mut self.unchanged,
            ReportList::Gone => &mut self.gone,
            ReportList::Left => &mut self.left,
            ReportList::Errors => &mut self.errors,
            ReportList::Warnings => &mut self.warnings,
            ReportList::PhotoErrors => &mut self.photo_errors,
        } = size;
    }
}

/// A run with its report: the summary, the first [`FIRST_ITEMS`] of each
/// list and each list's size; the rest of a list is paged by
/// `GET /api/admin/imports/{id}/items`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRun {
    #[serde(flatten)]
    pub summary: ImportRunSummary,
    #[serde(flatten)]
    pub report: Report,
    pub photo_errors: Vec<PhotoError>,
    /// How many items each list holds in all.
    pub lists: ListSizes,
}

/// A page of one list of a run's report: only that list's array holds
/// items, the others are empty.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportPage {
    pub list: ReportList,
    /// Items skipped before this page.
    pub offset: usize,
    /// Items the list holds in all.
    pub total: usize,
    pub new: Vec<NewCar>,
    pub changed: Vec<ChangedCar>,
    pub unchanged: Vec<UnchangedCar>,
    pub gone: Vec<GoneCar>,
    pub left: Vec<GoneCar>,
    pub errors: Vec<RowError>,
    pub warnings: Vec<RowWarning>,
    pub photo_errors: Vec<PhotoError>,
}

impl ReportPage {
    pub(super) fn empty(list: ReportList, offset: usize, total: usize) -> Self {
        ReportPage {
            list,
            offset,
            total,
            new: Vec::new(),
            changed: Vec::new(),
            unchanged: Vec::new(),
            gone: Vec::new(),
            left: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
            photo_errors: Vec::new(),
        }
    }
}
