//! dealership: the website and admin panel of a car dealership, in one binary.
//!
//! `main.rs` parses the command line and calls [`cli::run`]; everything else
//! lives here so tests and the CLI share it.

pub mod allocator;
pub mod calltracking;
pub mod cli;
pub mod clock;
pub mod config;
pub mod config_calls;
pub mod config_drop_ins;
pub mod config_services;
pub mod db;
pub mod demo;
pub mod domain;
pub mod error;
pub mod http;
pub mod jobs;
pub mod logging;
pub mod marketplaces;
pub mod media;
pub mod notify;
pub mod ops;
pub mod parser;
pub mod secret_file;
pub mod server;
pub mod text_dates;
