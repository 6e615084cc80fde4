//! The map against the hand-labelled concept sets of `tests/fixtures/concepts/` (issue 15):
//! the floors today's rules reach on the development half and on the held-out half. The
//! held-out half is only scored, never read for rules. `cargo run --release --example
//! concept_scores` prints the scores. Precision there is 1 − objections raised / concepts
//! raised.

#[path = "../examples/concept_scores.rs"]
#[allow(dead_code)]
mod concept_scores;

use concept_scores::{families, read_labelled, score_file, Scores};

/// The floors on recall, and on precision with and without the symbol-kind rows, over the
/// whole half.
fn holds_floor(file: &str, recall: f64, precision: f64, precision_math: f64) {
    let scores: Scores = score_file(file);
    let least = match file {
        "probes.jsonl" => 90,
        "broad.jsonl" => 80,
        _ => 200,
    };
    assert!(scores.formulas >= least, "{file}: {} formulas", scores.formulas);
    assert!(scores.unparsed.is_empty(), "{file}: unparsed {:?}", scores.unparsed);
    let (r, p) = (scores.all.recall(), scores.all.precision());
    assert!(r >= recall, "{file}: recall {r:.3} < {recall}");
    assert!(p >= precision, "{file}: precision {p:.3} < {precision}");
    let m = scores.all.precision_math();
    assert!(m >= precision_math, "{file}: precision without symbol-kind rows {m:.3} < {precision_math}");
}

#[test]
fn the_development_half_holds_its_floor() {
    // Measured (session 18): recall 86.7%, precision 99.6%, 99.4% without symbol-kind rows;
    // session 19 (rules over structure): 87.9%, 99.7%, 99.6%; session 21: 92.9%, 100%, 100%;
    // session 22 (the 49 missing concepts added and renamed): 95.5%, 100%, 100%; session 24
    // (rules over forms papers vary): 96.3%, 100%, 100%; session 26 (spellings): 96.6%, 100%;
    // session 27 (more spellings compiled): 96.6%, 100%; session 28: 96.6%, 100%; session 29:
    // 96.6%, 100%.
    holds_floor("dev.jsonl", 0.96, 0.99, 0.99);
}

#[test]
fn the_held_out_half_holds_its_floor() {
    // Measured (session 18): recall 67.3%, precision 99.0%, 98.6% without symbol-kind rows;
    // session 19: 68.1%, 99.2%, 98.8%; session 21: 75.0%, 99.3%, 99.1%; session 22: 81.6%,
    // 99.4%; session 24: 83.0%, 99.4%; session 26: 83.1%, 99.4%; session 27: 83.5%, 99.4%;
    // session 28 (new probes first, then rules over what they showed): 84.0%, 99.4%, 99.2%;
    // session 29: 84.0%, 99.4%, 99.2%; session 34: 84.3%; session 35: 84.7%, 99.4%, 99.2%;
    // session 36: 85.2%, 99.5%; session 37 (rules over the probes' misses): 86.0%, 99.5%.
    holds_floor("heldout.jsonl", 0.855, 0.99, 0.99);
}

#[test]
fn the_probes_hold_their_floor() {
    // Measured (session 18, when they were written): recall 81.6% before the rules written
    // against them, then 93.9%; precision 100%. Session 19 added 29 in two batches, each before
    // the rules written for them: 28 of 44 concepts found, then 12 of 25; all 123 now 90.3%.
    // Session 21 added 114 in two batches written before their rules (139 of 180 concepts found
    // before, then 53 of 84) and 10 after them; all 247 now 97.4%, precision 99.9%. Session 22
    // added 257 in six batches, each written before its rules (357 of their 556 concepts found
    // before); all 504 now 93.9%, precision 99.8%. Session 24 added 120 in two batches, each
    // before its rules (214 of the first batch's 237 concepts found before, 89 of the second's
    // 100); all 624 now 94.3%, precision 99.9%. Session 26 added 84 in three batches, each before
    // its rules (61 of 68 concepts found before, 38 of 45, 28 of 34); all 763 now 95.2%, 99.9%.
    // Session 27 added 148 in five batches, each before its rules (144 of 164 concepts found
    // before, 42 of 54, 28 of 31, 15 of 17, 14 of 15); all 911 now 94.8%, 99.9%. Session 28
    // added 83 in one batch before its rules (166 of 184 concepts found before, 176 after), one
    // after its rule, then 23 before theirs (40 of 45 found before, 43 after); all 1018 now
    // 95.4%, 99.9%. Session 29 added 146 in three batches, each before its rules (167 of 234
    // concepts found before, 37 of 56, 27 of 35); all 1164 now 93.7%, 99.9%.
    holds_floor("probes.jsonl", 0.93, 0.99, 0.99);
}

#[test]
fn the_broad_set_holds_its_floor() {
    // Measured (session 33, 83 formulas of less-cited papers labelled by a helper before any
    // rule was written for them): recall 46.8% (108 of 231 concepts; 56.2% of the 192 the
    // project has), precision 97.9%. Then rules over what it showed: 54.5%; then eight of the
    // concepts it named added, with rules: 60.2%, precision 98.1%; more rules: 63.2%. A second
    // batch of 84 written after those rules (one dropped: it was a held-out formula) was found
    // at 38.4% (107 of 278), against 38.1% with the rules of the session's start: the rules
    // written for the first batch carried almost nothing to the second. Both: 49.7%, 98.9%;
    // then ten concepts the second batch named added, each with a rule: 51.7%; seven more: 53.2%.
    // Session 34: general rules over both batches' misses and three concepts they named twice:
    // 60.3%. A third batch of 85 had been labelled at the session's start; 27 of them repeated a
    // formula of the sets (four of the held-out half) and were dropped. The 58 others were found
    // at 64.5% (156 of 242) with the start's rules and 65.3% with the session's: again the rules
    // carried two concepts to formulas they were not written for. All three: 61.9%, 99.0%.
    // Session 35: a fourth batch (53 kept of 80) at 49.4% with the start's rules, 54.8% after
    // rules over its misses; a fifth (85, labelled at the session's start) at 48.4% with the
    // start's rules, 49.0% with those written for the fourth batch and the session's own
    // probes, 51.9% after reading its misses. All five: 59.4%, precision 98.6% (98.2% without
    // the symbol-kind rows).
    // Session 36: a sixth batch (74 kept of 80, labelled in session 35 and never read there) at
    // 43.5% with session 35's start rules, 45.0% with its end rules (this session's start),
    // 53.8% after general rules over its misses. A seventh (80, labelled at this session's
    // start, none repeated) at 46.3% with the start's rules and 46.3% with those written for the
    // sixth: nothing carried; 53.7% after rules over its misses. All seven: 57.9%, 98.5%
    // (98.0% without the symbol-kind rows).
    // Session 37: the eighth batch (80, labelled in session 36, never read there) at 43.1% with
    // this session's start rules, 46.9% after four concepts it named (∏, absolute values, set
    // operations, cross-attention) and rules over its misses. All eight: 56.2%, 98.4%; 57.1%
    // after five more concepts and rules over the probes' misses.
    // Session 38: the ninth batch (85, labelled in session 37, never read there) at 46.6% with
    // this session's start rules, 44.9% once the 79 symbol-kind labels its labeller gave against
    // the labelling rules were taken out. All nine: 54.9%, 98.4% (97.9%); 55.2% after rules
    // over its misses.
    // Session 39: the tenth batch (85, labelled in session 38, never read there) at 43.4% with
    // both session 38's start and end rules (this session's start). All ten: 53.7%, 98.5% (98.0%)
    // with the start's rules; 53.9%, 98.6% (98.1%) after rules over its misses (the tenth itself
    // 44.1%).
    // Session 40: the eleventh batch (85, labelled at this session's start by a helper from the
    // papers as it remembered them, never read before scoring) at 39.9%, precision 96.5%, with
    // this session's start rules and with those written before it joined. All eleven: 52.7%,
    // 98.5% (97.9%).
    // Session 41: the twelfth batch (85, labelled at this session's start by a helper from the
    // papers as it remembered them, never read before scoring) at 42.5%, precision 94.4%, with
    // this session's start rules; 42.8% with those written before it joined, 44.1% (95.4%) after
    // rules over its misses. All twelve: 51.8%, 98.4% (97.8%) with the start's rules; 52.3%,
    // 98.5% (97.9%). A thirteenth (85, labelled by a helper during the session, its misses never
    // read): 37.7%, 97.3% with the start's rules, 37.9%, 97.2% with the end's. All thirteen:
    // 51.1%, 98.4% (97.7%).
    // Session 42: the thirteenth read, 37.9% -> 43.3% after rules over its misses. A fourteenth
    // (85, labelled at the session's start, its misses never read): 35.4%, 96.0% with the start's
    // rules, 35.9%, 96.0% with the end's. All fourteen: 49.9%, 98.2% (97.5%) with the start's
    // rules; 50.7%, 98.3% (97.6%) with the end's.
    // Session 43: the fourteenth read, 35.9% -> 44.0% after rules over its misses. A fifteenth
    // (85, labelled at the session's start, its misses never read): 44.0%, 98.8% with the start's
    // rules, 44.6%, 98.8% with the end's. All fifteen: 50.2%, 98.4% (97.7%) with the start's
    // rules; 51.0%, 98.4% (97.8%) with the end's.
    // Session 44: the fifteenth read, 44.6% -> 51.0% after rules over its misses. A sixteenth
    // (85, labelled at the session's start, its misses never read): 46.2%, 99.0% with the start's
    // rules, 47.0%, 99.0% with the end's. All sixteen: 50.6%, 98.5% (97.8%) with the start's
    // rules; 51.4%, 98.5% (97.9%) with the end's.
    // Session 45: the sixteenth read, 47.0% -> 50.4% after rules over its misses (one concept,
    // calc.partial-derivative, renamed from a missing id). A seventeenth (85, labelled at the
    // session's start, its misses never read): 48.7%, 98.1% with the start's rules, 49.2%, 98.1%
    // with the end's. All seventeen: 51.2%, 98.5% (97.8%) with the start's rules; 51.7%, 98.4%
    // (97.8%) with the end's.
    // Session 46: the seventeenth read, 49.2% -> 53.8% after rules over its misses. An eighteenth
    // (85, labelled at the session's start, its misses never read): 44.5%, 98.8% with the start's
    // rules and with the end's. All eighteen: 51.2%, 98.5% with the start's rules; 51.6%, 98.5%
    // with the end's.
    // Session 47: the eighteenth read, 44.5% -> 49.4% after rules and three concepts over its
    // misses. A nineteenth (85, labelled at the session's start; three of its formulas seen,
    // none of its misses read): 49.6%, 97.1% with the start's rules, 50.2%, 97.1% with the
    // end's. All nineteen: 51.5%, 98.4% with the start's rules; 52.0%, 98.4% with the end's.
    holds_floor("broad.jsonl", 0.50, 0.98, 0.975);
}

/// The concepts of `data/concepts.toml`, by id.
fn known_concepts() -> toml::Table {
    let root = env!("CARGO_MANIFEST_DIR");
    let concepts = std::fs::read_to_string(format!("{root}/data/concepts.toml")).expect("concepts");
    let concepts: toml::Table = toml::from_str(&concepts).expect("concepts.toml");
    concepts["concept"].as_table().expect("[concept]").clone()
}

/// The probes name only concepts the project has (with a family), each with its source.
#[test]
fn the_probes_are_well_formed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let known = known_concepts();
    let text =
        std::fs::read_to_string(format!("{root}/tests/fixtures/concepts/probes.jsonl")).expect("probes");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).expect("json");
        let id = record["id"].as_str().expect("id");
        assert!(record["source"].as_str().is_some_and(|s| !s.is_empty()), "{id}: no source");
        let concepts = record["concepts"].as_array().expect("concepts");
        assert!(!concepts.is_empty(), "{id}: no concept");
        for concept in concepts.iter().chain(record["objections"].as_array().expect("objections")) {
            let concept = concept.as_str().expect("concept id");
            assert!(known.contains_key(concept), "{id}: {concept} is not in data/concepts.toml");
        }
    }
}

/// The halves are the meaning set's halves, in its order, and every label is a concept the
/// project has or an honest `missing.<family>.<name>`, with a family.
#[test]
fn the_labels_are_well_formed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let known = known_concepts();
    let table = families();
    for family in table.values() {
        assert!(concept_scores::FAMILIES.contains(&family.as_str()), "family {family}");
    }
    for file in ["dev.jsonl", "heldout.jsonl", "broad.jsonl"] {
        let records = read_labelled(file);
        // The halves are the meaning set's; the broad set (session 33) has no meaning labels.
        if file != "broad.jsonl" {
            let meaning =
                std::fs::read_to_string(format!("{root}/tests/fixtures/meaning/{file}")).expect("meaning");
            let ids: Vec<String> = meaning
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l).expect("json")["id"]
                        .as_str()
                        .expect("id")
                        .into()
                })
                .collect();
            let labelled: Vec<String> = records.iter().map(|r| r.id.clone()).collect();
            assert_eq!(labelled, ids, "{file}: not the meaning set's formulas in its order");
        }
        for record in &records {
            assert!(!record.concepts.is_empty(), "{}: no concept", record.id);
            for id in record.concepts.iter().chain(&record.objections) {
                assert!(table.contains_key(id), "{}: {id} has no family", record.id);
                match id.strip_prefix("missing.") {
                    Some(rest) => {
                        let family = rest.split('.').next().unwrap_or("");
                        assert_eq!(table[id], family, "{}: {id}", record.id);
                        assert!(rest.contains('.'), "{}: {id} is not missing.<family>.<name>", record.id);
                    }
                    None => {
                        assert!(known.contains_key(id), "{}: {id} is not in data/concepts.toml", record.id)
                    }
                }
            }
            for id in &record.objections {
                assert!(!record.concepts.contains(id), "{}: {id} both expected and objected", record.id);
            }
        }
    }
}
