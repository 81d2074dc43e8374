// SPDX-License-Identifier: GPL-2.0
//! The command lines of the crate's programs: options, their values and
//! one positional argument, read one at a time.

use std::path::PathBuf;

/// One command-line argument.
#[derive(Debug, PartialEq)]
pub enum Arg {
    /// `-h` or `--help`.
    Help,
    /// An option (`-x`, `--name`); its value, if it takes one, is read
    /// with [`Args::value`].
    Opt(String),
    /// Anything else, `-` (standard input) included.
    Pos(String),
}

/// The arguments after the program's name.
pub struct Args<I: Iterator<Item = String>> {
    it: I,
    pos: Option<PathBuf>,
}

impl Args<std::iter::Skip<std::env::Args>> {
    /// The process's arguments.
    pub fn from_env() -> Self {
        Self::new(std::env::args().skip(1))
    }
}

impl<I: Iterator<Item = String>> Args<I> {
    /// Reads `it`, which does not include the program's name.
    pub fn new(it: I) -> Self {
        Args { it, pos: None }
    }

    /// The next argument.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Arg> {
        self.it.next().map(|a| match a.as_str() {
            "-h" | "--help" => Arg::Help,
            s if s.starts_with('-') && s != "-" => Arg::Opt(a),
            _ => Arg::Pos(a),
        })
    }

    /// The value of option `name`: the next argument.
    pub fn value(&mut self, name: &str) -> Result<String, String> {
        self.it
            .next()
            .ok_or_else(|| format!("{name} needs a value"))
    }

    /// Keeps `arg` as the one positional argument (`what`, in the error
    /// when there is a second).
    pub fn positional(&mut self, arg: String, what: &str) -> Result<(), String> {
        match self.pos.replace(PathBuf::from(arg)) {
            Some(_) => Err(format!("more than one {what}")),
            None => Ok(()),
        }
    }

    /// The positional argument, required (`what`, in the error when there
    /// is none).
    pub fn take_positional(&mut self, what: &str) -> Result<PathBuf, String> {
        self.pos.take().ok_or_else(|| format!("no {what} given"))
    }
}

/// `unknown option 'NAME'`.
pub fn unknown(name: &str) -> String {
    format!("unknown option '{name}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Args<std::vec::IntoIter<String>> {
        Args::new(
            v.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .into_iter(),
        )
    }

    #[test]
    fn options_values_and_one_positional() {
        let mut a = args(&["--out", "d", "-", "-h", "--x"]);
        assert_eq!(a.next(), Some(Arg::Opt("--out".into())));
        assert_eq!(a.value("--out").as_deref(), Ok("d"));
        assert_eq!(a.next(), Some(Arg::Pos("-".into())));
        assert_eq!(a.next(), Some(Arg::Help));
        assert_eq!(a.next(), Some(Arg::Opt("--x".into())));
        assert_eq!(a.value("--x"), Err("--x needs a value".into()));
        assert_eq!(a.next(), None);
    }

    #[test]
    fn a_second_positional_and_none_are_errors() {
        let mut a = args(&[]);
        assert_eq!(a.take_positional("DIR"), Err("no DIR given".into()));
        assert_eq!(a.positional("a".into(), "DIR"), Ok(()));
        assert_eq!(
            a.positional("b".into(), "DIR"),
            Err("more than one DIR".into())
        );
        assert_eq!(a.take_positional("DIR"), Ok(PathBuf::from("b")));
    }
}
