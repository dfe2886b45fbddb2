//! Messages of the `cache` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {}
