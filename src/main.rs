use clap::Parser;
use termdoku::cli::{self, Cli};

fn main() {
    let args = Cli::parse();
    let status = match args.command {
        Some(command) => cli::run(command),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            cli::EXIT_OK
        }
    };
    std::process::exit(status);
}
