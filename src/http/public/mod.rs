//! The public JSON API: the reads every visitor gets alike, and the lead form.

pub mod brands;
pub mod cars;
pub mod content;
pub mod leads;
