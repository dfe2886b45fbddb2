//! Messages of the `mem` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {}
