//! `$VISUAL`, else `$EDITOR`, else `vi`, on a file of Markdown: what
//! `notes add` and `notes edit` open when no body is given.

use std::path::PathBuf;
use std::process::Command;

use crate::error::CliError;

/// A file the body is written to, in the temporary directory; removed
/// when dropped unless [`Draft::keep`] was called.
pub(super) struct Draft {
    path: PathBuf,
    kept: bool,
}

impl Draft {
    /// A new file holding `text`, named after `what`.
    pub(super) fn new(what: &str, text: &str) -> Result<Draft, CliError> {
        let dir = std::env::temp_dir();
        for n in 0..100u32 {
            let path = dir.join(format!("organiser-{what}-{}-{n}.md", std::process::id()));
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path);
            match file {
                Ok(mut file) => {
                    std::io::Write::write_all(&mut file, text.as_bytes())?;
                    return Ok(Draft { path, kept: false });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(CliError::msg(format!(
                        "cannot write a file for the editor in {}: {e}",
                        dir.display()
                    )));
                }
            }
        }
        Err(CliError::msg(
            "cannot find a free name for the editor's file",
        ))
    }

    /// Opens the editor on the file and returns what it holds after.
    pub(super) fn edit(&self) -> Result<String, CliError> {
        let editor = ["VISUAL", "EDITOR"]
            .into_iter()
            .filter_map(std::env::var_os)
            .find(|v| !v.is_empty())
            .map(|v| v.to_string_lossy().into_owned())
            .unwrap_or_else(|| "vi".to_owned());
        // Through the shell, so that `EDITOR="code --wait"` works.
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("{editor} \"$1\""))
            .arg("sh")
            .arg(&self.path)
            .status()
            .map_err(|e| CliError::msg(format!("cannot run the editor {editor:?}: {e}")))?;
        if !status.success() {
            return Err(CliError::msg(format!(
                "the editor {editor:?} failed ({status}): nothing was saved"
            )));
        }
        std::fs::read_to_string(&self.path)
            .map_err(|e| CliError::msg(format!("cannot read {}: {e}", self.path.display())))
    }

    /// `e`, saying that the file is left in place with the text (which
    /// was not saved).
    pub(super) fn keeping(mut self, e: CliError) -> CliError {
        self.kept = true;
        let kept = format!("; your text is kept in {}", self.path.display());
        match e {
            e @ CliError::Api { .. } => {
                let said = e.to_string() + &kept;
                e.saying(said)
            }
            CliError::Usage(m) => CliError::Usage(m + &kept),
            other => CliError::msg(format!("{other}{kept}")),
        }
    }
}

impl Drop for Draft {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
