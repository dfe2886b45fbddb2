//! One file per request.

mod code_action;
mod completion;
mod hover;

pub use code_action::CodeActionHandler;
pub use completion::CompletionHandler;
pub use hover::HoverHandler;
