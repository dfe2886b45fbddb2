// include_spec! anchors every spec file it read, but a newly added file under spec/options
// would go unnoticed; watching the directory catches it.
fn main() {
    println!("cargo::rerun-if-changed=../../spec");
}
