//! Messages of the `lint` area. Add entries with [`crate::messages!`]; see the crate docs.

crate::messages! {}
