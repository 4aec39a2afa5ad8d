//! `qosgate`: see `qosgate --help` and [`qosgate_harness::cli`].

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::Parser;
use qosgate_harness::cli::{Cli, run};
use qosgate_harness::output::{Printable, printable};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli, &mut Printable::new(io::stdout().lock())) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`qosgate bounds | head`) is the reader's choice, not a failure.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("qosgate: error: {}", printable(&format!("{e:#}")));
            ExitCode::FAILURE
        }
    }
}
