//! The codegen golden: what `include_spec!` expands to for the bundled spec, printed with
//! prettyplease and checked in, so a change to the spec or to cann-codegen shows in review
//! as a change of generated Rust. `tests/ui/golden/bundled.rs` compiles it (typify's
//! pattern: compare every golden, then build it), so the pinned text is also valid Rust.

use cann_spec::Spec;

use crate::ensure::MARKER;

pub const PATH: &str = "crates/cann-codegen/tests/golden/bundled.rs";

/// The expansion a crate other than cann-config gets (paths through `::cann_config`).
pub fn generate(spec: &Spec) -> Result<String, syn::Error> {
    let tokens = cann_codegen::expand_spec(spec, &cann_codegen::Settings::external());
    let file: syn::File = syn::parse2(tokens)?;
    Ok(format!(
        "// {MARKER} from spec/: `include_spec!` expanded (cann_codegen::expand_spec,\n\
         // external paths). Compiled by tests/ui/golden/bundled.rs.\n\n{}",
        prettyplease::unparse(&file)
    ))
}
