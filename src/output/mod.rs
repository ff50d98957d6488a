//! Printers: each turns an `Outcome` into text. Nothing else prints.
pub mod human;
pub mod json;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}
