//! Messages of the `input` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {}
