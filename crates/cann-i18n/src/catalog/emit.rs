//! Comments and notes in what `cannctl emit` writes.

crate::messages! {
    not_on_surface(name: &str, surface: &str) {
        en: "`{name}` cannot be set through {surface}; it is left out",
        zh: "`{name}` 无法通过 {surface} 设置，已略去",
    }
}
