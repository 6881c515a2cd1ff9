//! What the state keeps besides the database and the config: the holders of
//! memory and limits shared by every request (`AppState`'s parts). They sit
//! below the state and the handlers: none of them names `AppState` or any
//! handler module, so the state depends on no code that answers a request.

pub mod catalogue;
pub mod feeds;
pub mod passwords;
pub mod render;
pub mod write_probe;
