//! Runs the roundtrip fuzz target's check (`parse(print(t)) == t`) over every file of a folder
//! (the target's artifacts, or a corpus), and prints the inputs that fail.
//! `cargo run --release --example roundtrip_check -- fuzz/artifacts/roundtrip`
fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "fuzz/artifacts/roundtrip".to_string());
    let Ok(entries) = std::fs::read_dir(&dir) else { return eprintln!("cannot read {dir}") };
    let (mut checked, mut failed) = (0, 0);
    for entry in entries.flatten() {
        let Ok(bytes) = std::fs::read(entry.path()) else { continue };
        let Ok(source) = std::str::from_utf8(&bytes) else { continue };
        let Ok(parsed) = eqmap::parse(source) else { continue };
        checked += 1;
        let printed = eqmap::syntax::print::to_latex(&parsed.root);
        let limits = eqmap::Limits { max_bytes: usize::MAX, ..eqmap::Limits::default() };
        let same = eqmap::parse_with(&printed, &limits).is_ok_and(|again| again.root == parsed.root);
        if !same {
            failed += 1;
            println!("{source:?} -> {printed:?}");
        }
    }
    println!("{failed} of {checked} parsed inputs do not print back to themselves");
}
