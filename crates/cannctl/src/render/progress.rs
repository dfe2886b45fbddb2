//! The one progress display of the command: drawn on standard error only when that is a
//! terminal (piped or captured output never gets control sequences), and cleared when
//! dropped. A bar counts steps (`cache` scans, `cache remote` transfers); a spinner ticks by
//! itself while a search runs (`mem plan`). Templates come from the catalog.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar of steps whose total is told later, drawn with `template` (indicatif syntax)
    /// and labelled `message`.
    pub fn bar(template: &str, message: &str) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let pb = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(template) {
            pb.set_style(style.progress_chars("=> "));
        }
        pb.set_message(message.to_owned());
        Progress(Some(pb))
    }

    /// A spinner drawn with `template` that ticks on its own; `shown: false` (a search too
    /// short to watch) draws nothing.
    pub fn spinner(template: &str, shown: bool) -> Progress {
        if !shown || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let pb = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template(template) {
            pb.set_style(style);
        }
        pb.enable_steady_tick(Duration::from_millis(120));
        Progress(Some(pb))
    }

    pub fn set_message(&self, message: String) {
        if let Some(pb) = &self.0 {
            pb.set_message(message);
        }
    }

    /// Clears the display now rather than when dropped.
    pub fn finish(&self) {
        if let Some(pb) = &self.0 {
            pb.finish_and_clear();
        }
    }
}

impl cann_runtime::cache::Progress for Progress {
    fn set_total(&self, total: u64) {
        if let Some(pb) = &self.0 {
            pb.set_length(total);
        }
    }
    fn inc(&self, n: u64) {
        if let Some(pb) = &self.0 {
            pb.inc(n);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
