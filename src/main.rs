//! The `organiser` binary; its code is organiser-cli.

fn main() -> std::process::ExitCode {
    organiser_cli::main()
}
