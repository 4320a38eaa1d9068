use clap::Parser;
use termdoku::cli::{self, Cli};

fn main() {
    let args = Cli::parse();
    let status = cli::run(args.command());
    std::process::exit(status);
}
