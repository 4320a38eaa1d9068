use clap::Parser;
use termdoku::cli::{self, Cli};

fn main() {
    let args = Cli::parse();
    let status = match args.command {
        Some(command) => cli::run(command),
        None => termdoku::tui::play(termdoku::tui::PlayArgs::default()),
    };
    std::process::exit(status);
}
