//! The `platcheck` binary: parse arguments, call the library, print, and map
//! the outcome to an exit code (0 clean, 1 findings at or above --fail-on,
//! 2 usage, configuration or internal error).
use clap::Parser;
use platcheck::cli::{self, Cli, Output};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cwd = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("platcheck: cannot read the working directory: {e}");
            return ExitCode::from(2);
        }
    };
    let args = match cli::args::prepare(std::env::args_os().collect(), &cwd) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("platcheck: error: {e}");
            return ExitCode::from(2);
        }
    };
    let cli = Cli::parse_from(args);
    match cli::execute(cli, &cwd) {
        Ok(Output::Text(text, files)) => {
            if let Err(e) = write_files(&files) {
                eprintln!("platcheck: error: {e}");
                return ExitCode::from(2);
            }
            if let Err(code) = print_out(&text) {
                return code;
            }
            ExitCode::SUCCESS
        }
        Ok(Output::Check {
            text,
            mut outcome,
            files,
            stream,
        }) => {
            if let Err(code) = print_out(&text) {
                return code;
            }
            if let Some((format, style)) = stream {
                // Written as the printer formats it (see `Output::Check`).
                let mut out = std::io::BufWriter::new(std::io::stdout().lock());
                let r = platcheck::output::write(format, &mut outcome, style, &mut out)
                    .and_then(|()| out.flush());
                if let Err(code) = written(r) {
                    return code;
                }
            }
            if let Err(e) = write_files(&files) {
                eprintln!("platcheck: error: {e}");
                return ExitCode::from(2);
            }
            let fail_on = outcome.fail_on;
            let code = if outcome
                .findings
                .iter()
                .any(|f| f.rule == platcheck::RuleId::PC000)
            {
                // Part of the input could not be checked: the result is incomplete.
                ExitCode::from(2)
            } else if outcome.findings.iter().any(|f| fail_on.fails(f.severity)) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
            // The outcome holds every file's positioned tree (5,000
            // contracts on the 1x bench repo): freeing them one by one was 6%
            // of a one-file run's instructions, and the process ends here.
            // Everything it had to write is written and flushed above.
            std::mem::forget(outcome);
            code
        }
        Ok(Output::Gate(run)) => {
            if let Err(code) = print_out(&run.text) {
                return code;
            }
            for w in &run.warnings {
                eprintln!("platcheck: warning: {w}");
            }
            for e in &run.errors {
                eprintln!("platcheck: error: {e}");
            }
            match (run.errors.is_empty(), run.hits) {
                (false, _) => ExitCode::from(2),
                (true, 0) => ExitCode::SUCCESS,
                (true, _) => ExitCode::from(1),
            }
        }
        Err(e) => {
            eprintln!("platcheck: error: {}", e.0);
            ExitCode::from(2)
        }
    }
}

fn write_files(files: &[cli::FileWrite]) -> Result<(), String> {
    for f in files {
        if f.append {
            // The runner owns the step summary: appended in one write.
            platcheck::read::write::append_once(&f.path, &f.text)?;
        } else {
            platcheck::read::write::write_file(&f.path, &f.text, f.replace)?;
        }
    }
    Ok(())
}

/// Prints the result. A closed pipe (`platcheck | head`) is not an error
/// worth reporting; any other failure (a full disk: `> /dev/full`) is, since
/// the CI step would otherwise pass with its report lost.
fn print_out(text: &str) -> Result<(), ExitCode> {
    let mut out = std::io::stdout().lock();
    written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

fn written(r: std::io::Result<()>) -> Result<(), ExitCode> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("platcheck: error: cannot write the output: {e}");
            Err(ExitCode::from(2))
        }
        _ => Ok(()),
    }
}
