//! `parse(print(tree)) == tree` for every tree the parser builds from any text: the canonical
//! printer's output parses back to the same tree (spans aside).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let Ok(parsed) = eqmap::parse(source) else { return };
    let printed = eqmap::syntax::print::to_latex(&parsed.root);
    // The printed form may be longer than the input; give it room, not a different grammar.
    let limits = eqmap::Limits { max_bytes: usize::MAX, ..eqmap::Limits::default() };
    match eqmap::parse_with(&printed, &limits) {
        Ok(again) => assert!(
            again.root == parsed.root,
            "{source:?} printed as {printed:?} parses to a different tree:\n{:?}\nvs\n{:?}",
            parsed.root,
            again.root
        ),
        Err(error) => {
            panic!("{source:?} printed as {printed:?} does not parse: {}", error.message(eqmap::Lang::En))
        }
    }
});
