use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = dealership::cli::Cli::parse();
    match dealership::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
