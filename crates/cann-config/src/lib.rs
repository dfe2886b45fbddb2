//! cann-config
