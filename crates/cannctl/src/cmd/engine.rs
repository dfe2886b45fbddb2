//! The memory engine's refusals in the user's language. The engine (`cann_runtime::memory`)
//! says why as values (`SessionError` and the errors under it, with the numbers that explain
//! them); this file only picks the catalog's words for each.

use cann_i18n::catalog::mem as msg;
use cann_i18n::Lang;
use cann_runtime::memory::{
    BackendError, ConfigProblem, HugePageError, MemoryError, PageSize, SessionError,
};

/// Why the engine refused, in `lang`.
pub(super) fn session(e: &SessionError, l: Lang) -> String {
    match e {
        SessionError::ConcurrentExecution {
            policy,
            running,
            requested,
        } => msg::engine_concurrent(l, *policy, &requested.to_string(), &running.to_string()),
        SessionError::UnknownGraph(g) => msg::engine_unknown_graph(l, &g.to_string()),
        SessionError::UnknownExecution(x) => msg::engine_unknown_execution(l, &x.to_string()),
        SessionError::UnknownTensor(t) => msg::engine_unknown_tensor(l, &t.to_string()),
        SessionError::UnknownVariable(v) => msg::engine_unknown_variable(l, &v.to_string()),
        SessionError::NotDynamic(g) => msg::engine_not_dynamic(l, &g.to_string()),
        SessionError::Memory(m) => memory(m, l),
        SessionError::HugePage(h) => huge_page(h, l),
    }
}

fn memory(e: &MemoryError, l: Lang) -> String {
    match e {
        MemoryError::Backend(b) => backend(b, l),
        MemoryError::ZeroSize => msg::engine_zero_size(l),
        MemoryError::ArenaExhausted {
            requested,
            reserved,
        } => msg::engine_arena_exhausted(l, *requested, *reserved),
        MemoryError::UnknownAllocation { offset } => msg::engine_unknown_allocation(l, *offset),
        MemoryError::InvalidConfig(p) => match *p {
            ConfigProblem::PageBytes { page_bytes, base } => {
                msg::engine_bad_page_bytes(l, page_bytes, base)
            }
            ConfigProblem::Align { align, page_bytes } => {
                msg::engine_bad_align(l, align, page_bytes)
            }
            ConfigProblem::ReserveOverflow { reserve_bytes } => {
                msg::engine_reserve_overflow(l, reserve_bytes)
            }
        },
    }
}

fn huge_page(e: &HugePageError, l: Lang) -> String {
    match e {
        HugePageError::Unavailable { policy, len, tried } => {
            let tried: Vec<String> = tried
                .iter()
                .map(|(p, errno)| msg::engine_page_tried(l, &page(*p, l), *errno))
                .collect();
            msg::engine_variable_pages(l, *policy, *len, &tried.join(&msg::engine_or(l)))
        }
        HugePageError::ZeroSize => msg::engine_zero_size(l),
        HugePageError::Backend(b) => backend(b, l),
    }
}

fn backend(e: &BackendError, l: Lang) -> String {
    match e {
        BackendError::HugePagesUnavailable {
            page: p,
            len,
            errno,
        } => msg::engine_pages_unavailable(l, &page(*p, l), *len, *errno),
        BackendError::OutOfMemory { len } => msg::engine_out_of_memory(l, *len),
        BackendError::ZeroLength => msg::engine_zero_length(l),
        BackendError::TooLarge { len } => msg::engine_too_large(l, *len),
        BackendError::Misaligned {
            offset,
            len,
            page_bytes,
        } => msg::engine_misaligned(l, *offset, *len, *page_bytes),
        BackendError::OutOfRange { id, offset, len } => {
            msg::engine_out_of_range(l, *id, *offset, *len)
        }
        BackendError::UnknownHandle { id } => msg::engine_unknown_handle(l, *id),
        // The system call's name is a name, not prose.
        BackendError::Os { op, errno } => msg::engine_os(l, op, *errno),
    }
}

fn page(p: PageSize, l: Lang) -> String {
    match p {
        PageSize::Base => msg::engine_page_base(l),
        PageSize::Huge2M => msg::engine_page_2m(l),
        PageSize::Huge1G => msg::engine_page_1g(l),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every layer reads in both languages, with the engine's numbers kept.
    #[test]
    fn refusals_are_worded_in_each_language() {
        let too_large = SessionError::HugePage(HugePageError::Backend(BackendError::TooLarge {
            len: u64::MAX,
        }));
        assert_eq!(
            session(&too_large, Lang::En),
            format!(
                "a request of {} bytes does not fit the address space",
                u64::MAX
            )
        );
        assert!(session(&too_large, Lang::Zh).contains("超出了地址空间"));
        let pages = SessionError::HugePage(HugePageError::Unavailable {
            policy: 2,
            len: 4096,
            tried: vec![(PageSize::Huge1G, 12), (PageSize::Huge2M, 12)],
        });
        assert_eq!(
            session(&pages, Lang::En),
            "variable_use_1g_huge_page = 2: 4096 bytes of variable memory could not be had \
             with 1 GiB huge pages (errno 12) or 2 MiB huge pages (errno 12)"
        );
        assert!(session(&pages, Lang::Zh).contains("1 GiB 大页（errno 12）或2 MiB 大页"));
        let config = SessionError::Memory(MemoryError::InvalidConfig(ConfigProblem::Align {
            align: 3,
            page_bytes: 2 << 20,
        }));
        assert!(session(&config, Lang::Zh).contains("对齐值 3"));
    }
}
