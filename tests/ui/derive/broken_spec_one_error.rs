// A derive over a spec with one mistake reports that mistake once: code using the struct
// (defaults, validation, emitters, serde) brings no further errors.
#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../fixtures/bad-specs/default-outside-range", release = "1.0.0")]
struct Options {
    level: Option<i64>,
}

fn main() {
    let o = Options::default();
    let _ = o.validate(cann_config::Product::ALL[0]);
    let _ = o.emit(cann_config::emit::Format::Ge);
    let _ = Options::from_config(&o.to_config());
    let _ = Options::RELEASE;
    fn serde<T: cann_config::__private::serde::Serialize>(_: &T) {}
    serde(&o);
}
