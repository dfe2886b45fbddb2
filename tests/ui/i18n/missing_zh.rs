// A message without its Chinese text does not compile.
cann_i18n::messages! {
    unknown_entry(path: &str) {
        en: "`{path}` is not in the manifest",
    }
}

fn main() {}
