//! cann-spec
