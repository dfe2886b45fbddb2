//! Operator compile cache (see DESIGN.md, "cache").
