//! How a plan was found, in words: the planner reports a [`Strategy`] (data,
//! no sentences), and this words it from the catalog in the language asked
//! for, inside out for the strategies that wrap another.

use cann_i18n::catalog::mem as msg;
use cann_i18n::Lang;
use cann_memsim::planner::strategy::{Gap, Order, Stack, Strategy};

/// `strategy` as a phrase in `lang`.
pub(super) fn words(strategy: &Strategy, lang: Lang) -> String {
    match strategy {
        Strategy::Sweep { gap } => msg::plan_by_sweep(lang, &gap_words(*gap, lang)),
        Strategy::Greedy { order, gap } => {
            msg::plan_by_greedy(lang, &order_words(*order, lang), &gap_words(*gap, lang))
        }
        Strategy::SqueakyWheel { round } => msg::plan_by_squeaky_wheel(lang, *round),
        Strategy::FromPeak { stack } => msg::plan_from_peak(lang, &stack_words(*stack, lang)),
        Strategy::Backtracked { stack, lowered } => {
            msg::plan_backtracked(lang, &stack_words(*stack, lang), *lowered)
        }
        Strategy::Refined {
            from,
            lowered,
            start,
        } => msg::plan_refined(lang, &words(from, lang), *lowered, *start),
        Strategy::Exact { proven: false } => msg::plan_by_exact(lang),
        Strategy::Exact { proven: true } => msg::plan_by_exact_proven(lang),
        Strategy::Merged { blocks, inner } => msg::plan_merged(lang, *blocks, &words(inner, lang)),
        Strategy::Split {
            bands,
            groups,
            highest,
        } => msg::plan_split(lang, *bands, *groups, &words(highest, lang)),
    }
}

fn gap_words(gap: Gap, lang: Lang) -> String {
    match gap {
        Gap::Best => msg::plan_gap_best(lang),
        Gap::First => msg::plan_gap_first(lang),
        Gap::Aligned => msg::plan_gap_aligned(lang),
    }
}

fn order_words(order: Order, lang: Lang) -> String {
    match order {
        Order::Size => msg::plan_order_size(lang),
        Order::Area => msg::plan_order_area(lang),
        Order::Lifetime => msg::plan_order_lifetime(lang),
    }
}

fn stack_words(stack: Stack, lang: Lang) -> String {
    match stack {
        Stack::LastEndLowest => msg::plan_stack_last_end_lowest(lang),
        Stack::FirstStartLowest => msg::plan_stack_first_start_lowest(lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_strategies_are_worded_inside_out_in_both_languages() {
        let s = Strategy::Split {
            bands: 1,
            groups: 3,
            highest: Box::new(Strategy::Refined {
                from: Box::new(Strategy::FromPeak {
                    stack: Stack::LastEndLowest,
                }),
                lowered: 7,
                start: 2,
            }),
        };
        assert_eq!(
            words(&s, Lang::En),
            "split in time (1 bands, 3 groups); the highest group: sweeps out from the peak, \
             aligned gaps, its live set stacked the last to end lowest, then 7 peak \
             re-placements (start 2)"
        );
        assert_eq!(
            words(&s, Lang::Zh),
            "按时间切分（1 个贯穿条带，3 个组）；最高的组：从负载峰值向前后扫描，对齐空隙，\
             峰值时刻的存活缓冲区按最晚结束者在最下堆叠，再经 7 次峰值重新放置（第 2 路起点）"
        );
        let merged = Strategy::Merged {
            blocks: 4,
            inner: Box::new(Strategy::Greedy {
                order: Order::Size,
                gap: Gap::First,
            }),
        };
        assert_eq!(
            words(&merged, Lang::Zh),
            "合并缓冲区得到 4 个块：按大小贪心，首个空隙"
        );
        // No English word is left in any Chinese phrase but the algorithm's name.
        for s in [
            Strategy::Sweep { gap: Gap::Aligned },
            Strategy::Exact { proven: true },
            Strategy::Greedy {
                order: Order::Lifetime,
                gap: Gap::Best,
            },
            Strategy::FromPeak {
                stack: Stack::FirstStartLowest,
            },
            Strategy::Backtracked {
                stack: Stack::LastEndLowest,
                lowered: 12,
            },
        ] {
            let zh = words(&s, Lang::Zh);
            assert!(!zh.chars().any(|c| c.is_ascii_alphabetic()), "{zh}");
        }
    }
}
