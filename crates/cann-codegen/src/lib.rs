//! cann-codegen
