//! What the terminal is given: the choice of colour, and text made safe to
//! print. A leaf: the configuration file and the output both read it.

/// When to colour: `--color auto|always|never` (and `color` in the
/// configuration file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (`CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `text` with every control character shown escaped (`\x1b`, `\u{9b}`):
/// names and titles come from anyone holding a token, and a raw ESC, BEL
/// or NUL would drive the owner's terminal.
pub(crate) fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push('\n'),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out.into()
}
