//! Whether a literal is of an option's type, for the checks that read values written in
//! the spec (values, defaults, rule conditions, history).

use crate::model::{Literal, OptionType};

pub(crate) fn literal_fits(ty: &OptionType, lit: &Literal) -> bool {
    matches!(
        (ty, lit),
        (OptionType::Bool, Literal::Bool(_))
            | (OptionType::Int | OptionType::IntEnum, Literal::Int(_))
            | (OptionType::Float, Literal::Float(_))
            | (
                OptionType::StrEnum
                    | OptionType::Str
                    | OptionType::Path { .. }
                    | OptionType::CorePair,
                Literal::Str(_)
            )
    )
}
