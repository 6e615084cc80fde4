//! Any bytes → UTF-8 → `speak::read` in both languages: a reading or a parse error, never a
//! panic.
#![no_main]

use eqmap::Lang;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let Ok(parsed) = eqmap::parse(source) else { return };
    let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
    for lang in [Lang::Ko, Lang::En] {
        let _reading = eqmap::speak::read(&parsed.root, source, &table, lang);
    }
});
