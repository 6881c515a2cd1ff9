//! The public JSON API of spec section 7.

pub mod brands;
pub mod cars;
pub mod content;
pub mod leads;
