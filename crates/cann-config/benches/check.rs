//! Parse + validate + emit of the bundled example config, and each step alone.
use std::hint::black_box;

use cann_config::emit::{emit, Format};
use cann_config::{parse_config, validate, Product, Release, Target};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const EXAMPLE: &str = include_str!("../../../examples/train-a2.yaml");

fn bench(c: &mut Criterion) {
    let target = Target {
        product: Product::AtlasA2Training,
        release: Release::V9_0_0,
    };
    let file = parse_config(EXAMPLE).unwrap_or_default();
    let mut g = c.benchmark_group("example");
    g.throughput(Throughput::Elements(1));
    g.bench_function("parse", |b| b.iter(|| parse_config(black_box(EXAMPLE))));
    g.bench_function("validate", |b| {
        b.iter(|| validate(black_box(&file.config), target))
    });
    g.bench_function("emit_ge", |b| {
        b.iter(|| emit(black_box(&file.config), Format::Ge).ok())
    });
    g.bench_function("emit_session", |b| {
        b.iter(|| emit(black_box(&file.config), Format::Session).ok())
    });
    g.bench_function("parse_validate_emit", |b| {
        b.iter(|| {
            let f = parse_config(black_box(EXAMPLE)).unwrap_or_default();
            let r = validate(&f.config, target);
            (r, emit(&f.config, Format::Ge).ok())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
