//! A CANN `platform_config/<soc_version>.ini`: the core counts of one processor, so
//! `aicore_num` can be checked against the real device rather than the product line.

use crate::CoreCounts;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message(crate::meta::Lang::En))]
pub enum SocIniError {
    BadCount {
        line: usize,
        key: &'static str,
        value: String,
    },
    Missing(&'static str),
}

impl SocIniError {
    pub fn message(&self, lang: crate::meta::Lang) -> String {
        use cann_i18n::catalog::config as msg;
        match self {
            SocIniError::BadCount { line, key, value } => {
                msg::soc_bad_count(lang, *line, key, value)
            }
            SocIniError::Missing(key) => msg::soc_missing(lang, key),
        }
    }
}

/// Reads `cube_core_cnt` and `vector_core_cnt` from the `[SoCInfo]` section.
pub fn parse_soc_ini(text: &str) -> Result<CoreCounts, SocIniError> {
    const CUBE: &str = "cube_core_cnt";
    const VECTOR: &str = "vector_core_cnt";
    let mut in_soc = false;
    let (mut cube, mut vector) = (None, None);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            in_soc = line == "[SoCInfo]";
            continue;
        }
        if !in_soc || line.starts_with(['#', ';']) {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        let key = match k {
            CUBE => CUBE,
            VECTOR => VECTOR,
            _ => continue,
        };
        let n = v
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| SocIniError::BadCount {
                line: i + 1,
                key,
                value: v.to_string(),
            })?;
        if key == CUBE {
            cube = Some(n);
        } else {
            vector = Some(n);
        }
    }
    Ok(CoreCounts {
        cube: cube.ok_or(SocIniError::Missing(CUBE))?,
        vector: vector.ok_or(SocIniError::Missing(VECTOR))?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_the_soc_section_only() {
        let ini = "[version]\ncube_core_cnt=1\n[SoCInfo]\nai_core_cnt=24\ncube_core_cnt=24\nvector_core_cnt = 48\n[other]\nvector_core_cnt=2\n";
        assert_eq!(
            parse_soc_ini(ini).unwrap(),
            CoreCounts {
                cube: 24,
                vector: 48
            }
        );
    }

    #[test]
    fn bad_and_missing_counts() {
        assert!(matches!(
            parse_soc_ini("[SoCInfo]\ncube_core_cnt=x\nvector_core_cnt=2\n"),
            Err(SocIniError::BadCount { line: 2, .. })
        ));
        assert_eq!(
            parse_soc_ini("[SoCInfo]\ncube_core_cnt=2\n"),
            Err(SocIniError::Missing("vector_core_cnt"))
        );
        assert!(parse_soc_ini("").is_err());
    }
}
