//! One handler per public route: the page's head and the API answers its
//! first screen needs, under the same URLs the UI builds (ui/src/api/urls.ts).

mod answer;
mod car_page;
mod catalogue;
mod content;
mod forget;

pub use answer::{CREDIT_PROGRAMS, NOT_FOUND_DESCRIPTION};
pub use car_page::car;
pub use catalogue::{body_type, brand, home, lease_cars, new_cars, used_cars};
pub use content::{
    auto_credit, auto_selection, compare, consent, favorites, privacy, saved_search_confirm,
    saved_search_unsubscribe, trade_in,
};
pub use forget::{personal_data_forget, personal_data_forget_form};
