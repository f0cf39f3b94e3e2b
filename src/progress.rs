//! Progress bars on stderr for the long runs of the tools and the referee
//! (matches, training, latency): they show where a run is on a terminal
//! and stay hidden when stderr is not one, so logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar counting `len` items with `template` (indicatif's
/// template syntax).
pub fn progress(len: u64, template: &str) -> ProgressBar {
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template(template).expect("the callers' templates are valid"),
    )
}
