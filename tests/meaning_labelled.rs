//! The meaning layer against the hand-labelled sets of `tests/fixtures/meaning/`: the floor
//! that today's rules reach on the development set, on the held-out set (never looked at
//! while writing rules) and on the probes (second and third labellers' sets, sessions 24 and 28). `cargo run --release --example meaning_kinds` prints the scores.

use eqmap::meaning::score::{read_labelled, score, Scores, KINDS};

fn scores(file: &str) -> Scores {
    let path = format!("{}/tests/fixtures/meaning/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let records = read_labelled(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(records.len() >= 200, "{path}: {} records", records.len());
    score(&records)
}

/// The floors: accuracy over all symbols, and every kind's recall and precision.
fn holds_floor(scores: &Scores, accuracy: f64, per_kind: f64) {
    assert!(scores.unparsed.is_empty(), "unparsed: {:?}", scores.unparsed);
    assert!(scores.accuracy() >= accuracy, "accuracy {:.3} < {accuracy}", scores.accuracy());
    for kind in KINDS {
        let (precision, recall) = scores.precision_recall(kind);
        assert!(
            precision >= per_kind && recall >= per_kind,
            "{kind}: precision {precision:.3}, recall {recall:.3}"
        );
    }
}

#[test]
fn the_development_set_holds_its_floor() {
    holds_floor(&scores("dev.jsonl"), 0.95, 0.9);
}

#[test]
fn the_held_out_set_holds_its_floor() {
    holds_floor(&scores("heldout.jsonl"), 0.905, 0.80);
}

#[test]
fn the_probes_hold_their_floor() {
    holds_floor(&scores("probes.jsonl"), 0.875, 0.72);
}

#[test]
fn the_sets_use_only_the_documented_kinds() {
    for file in ["dev.jsonl", "heldout.jsonl", "probes.jsonl"] {
        for judged in scores(file).judged {
            assert!(
                KINDS.contains(&judged.truth.as_str()),
                "{file}: {} has kind {}",
                judged.id,
                judged.truth
            );
        }
    }
}
