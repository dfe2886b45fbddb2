//! Memory policies (see DESIGN.md, "memory").
