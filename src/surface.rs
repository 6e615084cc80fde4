//! Where a message is shown, so that it names only what the reader there can do.
//!
//! An error about a limit says which [`Limit`] it is; the [`Surface`] it is rendered for knows
//! whether a flag raises that limit. On the command line each adjustable limit has one
//! (`--max-elements`); a server's limits are fixed for its requests, so its messages name the
//! limit and no flag. Likewise a hint about binding a value names `--let` and `--seed` on the
//! command line and the request's `let` and `seed` on a server.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::lang::Lang;

/// A limit a message may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// The length of a formula in bytes.
    Bytes,
    /// The nesting depth.
    Depth,
    /// The elements of one value.
    Elements,
    /// The steps of one evaluation.
    Steps,
}

impl Limit {
    /// The command-line flag that raises it.
    pub fn flag(self) -> &'static str {
        match self {
            Limit::Bytes => "--max-bytes",
            Limit::Depth => "--max-depth",
            Limit::Elements => "--max-elements",
            Limit::Steps => "--max-steps",
        }
    }
}

/// Where a message is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Surface {
    /// The command line: every limit a message names has a flag.
    #[default]
    Cli,
    /// `eqmap serve`: the limits are the server's, fixed; options are fields of the request.
    Server,
}

impl Surface {
    /// The flag that raises `limit` here, if there is one.
    pub fn flag(self, limit: Limit) -> Option<&'static str> {
        match self {
            Surface::Cli => Some(limit.flag()),
            Surface::Server => None,
        }
    }

    /// What follows a stated limit inside its parentheses: `; raise it with --max-elements`
    /// (`, --max-elements로 늘릴 수 있음`) where a flag raises it, `, fixed on this server`
    /// (`, 이 서버에서는 바꿀 수 없음`) where none does.
    pub fn after_limit(self, limit: Limit, lang: Lang) -> String {
        match (self.flag(limit), lang) {
            (Some(flag), Lang::Ko) => format!(", {flag}로 늘릴 수 있음"),
            (Some(flag), Lang::En) => format!("; raise it with {flag}"),
            (None, Lang::Ko) => ", 이 서버에서는 바꿀 수 없음".to_string(),
            (None, Lang::En) => ", fixed on this server".to_string(),
        }
    }

    /// The words for `limit` alone in parentheses: `raise it with --max-steps`
    /// (`--max-steps로 늘릴 수 있음`), or `the server's limit` (`이 서버의 한도`).
    pub fn raise(self, limit: Limit, lang: Lang) -> String {
        match (self.flag(limit), lang) {
            (Some(flag), Lang::Ko) => format!("{flag}로 늘릴 수 있음"),
            (Some(flag), Lang::En) => format!("raise it with {flag}"),
            (None, Lang::Ko) => "이 서버의 한도".to_string(),
            (None, Lang::En) => "the server's limit".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_names_the_flag_and_a_server_names_none() {
        for limit in [Limit::Bytes, Limit::Depth, Limit::Elements, Limit::Steps] {
            for lang in [Lang::Ko, Lang::En] {
                let cli = Surface::Cli.after_limit(limit, lang) + &Surface::Cli.raise(limit, lang);
                assert_eq!(cli.matches(limit.flag()).count(), 2, "{cli}");
                let server = Surface::Server.after_limit(limit, lang) + &Surface::Server.raise(limit, lang);
                assert!(!server.contains("--"), "{server}");
                assert!(server.contains(lang.pick("서버", "server")), "{server}");
            }
        }
        assert_eq!(Surface::default(), Surface::Cli);
    }
}
