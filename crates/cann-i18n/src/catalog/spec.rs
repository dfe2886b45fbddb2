//! Messages of the `spec` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {}
