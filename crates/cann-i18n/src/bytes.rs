//! Byte counts for people: the one formatter every front end uses (cache reports, memory
//! reports, plot axes).

use crate::{catalog, Lang};

/// The binary unit a count of `n` bytes reads best in: its size and symbol.
pub fn unit(n: u64) -> (u64, &'static str) {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    UNITS
        .into_iter()
        .find(|(size, _)| n >= *size)
        .unwrap_or((1, "B"))
}

/// `1.50 GiB`, `512 B`.
pub fn human(n: u64) -> String {
    match unit(n) {
        (1, name) => format!("{n} {name}"),
        (size, name) => format!("{:.2} {name}", n as f64 / size as f64),
    }
}

/// The exact count with its size in MB to one decimal, as the cache reports it:
/// `1048576 bytes (1.0 MB)`.
pub fn exact(lang: Lang, n: u64) -> String {
    catalog::remote::bytes(lang, n, &format!("{:.1}", n as f64 / 1_048_576.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_step_at_each_power_of_1024() {
        assert_eq!(human(0), "0 B");
        assert_eq!(human(1023), "1023 B");
        assert_eq!(human(1024), "1.00 KiB");
        assert_eq!(human(3 << 29), "1.50 GiB");
        assert_eq!(unit((1 << 20) - 1), (1 << 10, "KiB"));
        assert_eq!(exact(Lang::En, 1 << 20), "1048576 bytes (1.0 MB)");
        assert_eq!(exact(Lang::Zh, 1 << 20), "1048576 字节（1.0 MB）");
    }
}
