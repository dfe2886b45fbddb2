//! cann-macros
