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
            print_out(&text);
            ExitCode::SUCCESS
        }
        Ok(Output::Check {
            text,
            outcome,
            files,
        }) => {
            print_out(&text);
            if let Err(e) = write_files(&files) {
                eprintln!("platcheck: error: {e}");
                return ExitCode::from(2);
            }
            let fail_on = outcome.fail_on;
            if outcome
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
            }
        }
        Ok(Output::Gate(run)) => {
            print_out(&run.text);
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
        let result = if f.append {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&f.path)
                .and_then(|mut h| h.write_all(f.text.as_bytes()))
        } else {
            std::fs::write(&f.path, &f.text)
        };
        result.map_err(|e| format!("cannot write {}: {e}", f.path.display()))?;
    }
    Ok(())
}

fn print_out(text: &str) {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`platcheck | head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
