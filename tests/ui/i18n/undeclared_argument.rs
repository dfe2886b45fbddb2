// A text that shows an argument the message does not declare does not compile.
cann_i18n::messages! {
    unknown_entry(path: &str) {
        en: "`{path}` is not in the manifest",
        zh: "`{path}` 不在清单 {manifest} 中",
    }
}

fn main() {}
