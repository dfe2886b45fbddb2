//! Expansion time of the bundled spec and of synthetic specs 2x, 5x and 10x its size, to
//! show that code generation grows linearly with the number of options.
use std::hint::black_box;
use std::path::Path;

use cann_spec::Spec;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// The bundled spec with every option, value and rule repeated `n` times under new names.
fn scaled(base: &Spec, n: usize) -> Spec {
    let mut s = base.clone();
    for i in 1..n {
        let suffix = format!("_x{i}");
        for o in &base.options {
            let mut c = o.clone();
            if matches!(c.ty, cann_spec::OptionType::Config(_)) {
                continue; // nested classes stay single; their fields are repeated
            }
            c.name.push_str(&suffix);
            c.path.push_str(&suffix);
            c.ge_key = c.ge_key.map(|k| k + &suffix);
            c.surfaces.session = c.surfaces.session.map(|(n, a)| (n + &suffix, a));
            c.surfaces.tf2 = c.surfaces.tf2.map(|p| p + &suffix);
            c.surfaces.env = c.surfaces.env.map(|p| p + &suffix.to_uppercase());
            s.options.push(c);
        }
        for r in &base.rules {
            let mut c = r.clone();
            c.id.push_str(&suffix);
            s.rules.push(c);
        }
    }
    s
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let Ok(base) = cann_spec::load_dir(&dir) else {
        eprintln!("the bundled spec does not load; nothing to measure");
        return;
    };
    let settings = cann_codegen::Settings::in_support_crate();
    let mut g = c.benchmark_group("expand_spec");
    g.sample_size(10);
    for n in [1usize, 2, 5, 10] {
        let spec = scaled(&base, n);
        g.throughput(Throughput::Elements(spec.options.len() as u64));
        g.bench_with_input(
            BenchmarkId::from_parameter(format!("{n}x ({} options)", spec.options.len())),
            &spec,
            |b, spec| {
                b.iter(|| {
                    cann_codegen::expand_spec(black_box(spec), &settings)
                        .to_string()
                        .len()
                })
            },
        );
    }
    g.finish();
    let mut g = c.benchmark_group("load_spec");
    g.sample_size(10);
    g.bench_function("bundled", |b| {
        b.iter(|| cann_spec::load_dir(black_box(&dir)).is_ok())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
