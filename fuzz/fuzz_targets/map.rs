//! Any bytes → UTF-8 → `slotmap::map_source` with the shipped knowledge, in both languages,
//! then every renderer: a map or a parse error, never a panic.
#![no_main]

use eqmap::report::slotmap as report;
use eqmap::slotmap::{map_source, Knowledge};
use eqmap::Lang;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn knowledge() -> &'static Knowledge {
    static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
    KNOWLEDGE.get_or_init(|| match Knowledge::default_knowledge() {
        Ok(k) => k,
        Err(e) => panic!("shipped knowledge does not load: {e}"),
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    for lang in [Lang::Ko, Lang::En] {
        match map_source(source, knowledge(), lang) {
            Ok(map) => {
                // A hidden slot has no span; a merged row has one per occurrence.
                for slot in &map.slots {
                    for span in slot.span.iter().chain(&slot.spans) {
                        assert!(span.start <= span.end && span.end <= source.len(), "slot span {span:?}");
                    }
                }
                let _ = report::render_table(&map, lang, report::Style { color: true, width: Some(60) });
                let _ = report::render_markdown(&map, lang);
                let _ = report::render_json(&map);
                let comparison = eqmap::slotmap::compare(&map, &map);
                let _ = report::render_comparison(&map, &map, &comparison, &knowledge().curriculum, lang);
            }
            Err(error) => {
                let _ = eqmap::report::diagnostic::render_error(source, &error, lang);
            }
        }
    }
});
