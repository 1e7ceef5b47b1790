//! summary.csv: [`Summary::rows`] renders the statistics of a run as its rows.

use super::format_length;
use super::model::{Interval, SeatResults, Summary, LENGTH_UNITS};
use crate::record::SummaryRow;
use crate::reporting::stats::{format_elo, format_p_value, format_rate, EloEstimate};

/// The fields of a row after its statistic: `value`, `low` and `high` (numbers, or
/// empty) and `text` (a word, for the few statistics that are not numbers).
type Fields = [String; 4];

/// A proportion and its interval as CSV fields, all empty when undefined.
fn interval_fields(interval: Option<Interval>) -> Fields {
    match interval {
        Some(i) => [
            format_rate(i.value),
            format_rate(i.low),
            format_rate(i.high),
            String::new(),
        ],
        None => Default::default(),
    }
}

/// A number without an interval (empty when undefined).
fn plain(value: String) -> Fields {
    [value, String::new(), String::new(), String::new()]
}

/// A statistic that is a word (the SPRT's decision, the rating's anchor): in the
/// `text` column, so that `value`, `low` and `high` hold only numbers.
fn word(text: String) -> Fields {
    [String::new(), String::new(), String::new(), text]
}

impl Summary {
    /// The rows of summary.csv (see results/README.md for every section and statistic).
    pub fn rows(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        let mut push = |section: &str,
                        pairing: Option<&(u64, String, String)>,
                        subject: &str,
                        statistic: &str,
                        [value, low, high, text]: Fields| {
            let (index, a, b) = match pairing {
                Some((i, a, b)) => (i.to_string(), a.clone(), b.clone()),
                None => Default::default(),
            };
            rows.push(SummaryRow {
                section: section.into(),
                pairing: index,
                agent_a: a,
                agent_b: b,
                subject: subject.into(),
                statistic: statistic.into(),
                value,
                low,
                high,
                text,
            });
        };
        let elo_fields = |e: Option<EloEstimate>| match e {
            Some(e) => [
                format_elo(e.elo),
                format_elo(e.low),
                format_elo(e.high),
                String::new(),
            ],
            None => Default::default(),
        };

        for p in &self.pairings {
            let key = (p.index, p.agent_a.clone(), p.agent_b.clone());
            let mut put = |statistic: &str, fields: Fields| {
                push("pairing", Some(&key), "", statistic, fields)
            };
            put("games", plain(p.a.games().to_string()));
            put("distinct_games", plain(p.distinct.to_string()));
            put("wins", plain(p.a.wins.to_string()));
            put("draws", plain(p.a.draws.to_string()));
            put("losses", plain(p.a.losses.to_string()));
            put(
                "score",
                plain(p.a.score().map(format_rate).unwrap_or_default()),
            );
            put("elo", elo_fields(p.elo));
            put("los", plain(p.los.map(format_rate).unwrap_or_default()));
            // In self-play the pair rows stay, with empty values (they do not apply).
            let pairs = (!p.self_play()).then_some(&p.pairs);
            put(
                "pairs",
                plain(pairs.map(|q| q.pairs().to_string()).unwrap_or_default()),
            );
            for (k, name) in ["pairs_ll", "pairs_ld", "pairs_dd", "pairs_wd", "pairs_ww"]
                .iter()
                .enumerate()
            {
                put(
                    name,
                    plain(pairs.map(|q| q.counts[k].to_string()).unwrap_or_default()),
                );
            }
            put("elo_pairs", elo_fields(p.elo_pairs));
        }

        if let (Some(s), Some(p)) = (&self.sprt, self.pairings.first()) {
            let key = (p.index, p.agent_a.clone(), p.agent_b.clone());
            let mut put =
                |statistic: &str, fields: Fields| push("sprt", Some(&key), "", statistic, fields);
            put("elo0", plain(s.sprt.elo0.to_string()));
            put("elo1", plain(s.sprt.elo1.to_string()));
            put("alpha", plain(s.sprt.alpha.to_string()));
            put("beta", plain(s.sprt.beta.to_string()));
            put(
                "llr",
                [
                    format_rate(s.llr),
                    format_rate(s.sprt.lower_bound()),
                    format_rate(s.sprt.upper_bound()),
                    String::new(),
                ],
            );
            put("decision", word(s.decision.word().into()));
        }

        if let Some(r) = &self.ratings {
            push(
                "rating",
                None,
                "",
                "anchor",
                word(r.anchor.clone().unwrap_or_else(|| "mean".into())),
            );
            for a in &r.agents {
                push(
                    "rating",
                    None,
                    &a.label,
                    "games",
                    plain(a.games.to_string()),
                );
                push(
                    "rating",
                    None,
                    &a.label,
                    "score",
                    plain(a.score.map(format_rate).unwrap_or_default()),
                );
                push("rating", None, &a.label, "elo", elo_fields(Some(a.elo)));
            }
        }

        for scope in &self.scopes {
            let key = scope.pairing.as_ref();
            let mut record = |section: &str, subject: &str, results: &SeatResults| {
                let w = &results.wdl;
                push(section, key, subject, "wins", plain(w.wins.to_string()));
                push(section, key, subject, "draws", plain(w.draws.to_string()));
                push(section, key, subject, "losses", plain(w.losses.to_string()));
                let rate = results.win_rate;
                push(
                    section,
                    key,
                    subject,
                    "win_rate",
                    interval_fields(rate.map(|r| r.rate)),
                );
                push(
                    section,
                    key,
                    subject,
                    "p_value",
                    plain(rate.map(|r| format_p_value(r.p_value)).unwrap_or_default()),
                );
                push(
                    section,
                    key,
                    subject,
                    "score",
                    interval_fields(results.score),
                );
            };
            record("seat", "0", &scope.seat0);
            for (side, w) in &scope.first_side {
                record("side", side, w);
            }
            // Without a pie rule the swap rows stay, with empty values (they do not apply).
            push(
                "swap",
                key,
                "",
                "swaps",
                plain(if self.pie_rule {
                    scope.swaps.to_string()
                } else {
                    String::new()
                }),
            );
            push(
                "swap",
                key,
                "",
                "swap_rate",
                interval_fields(scope.swap_rate.filter(|_| self.pie_rule)),
            );
            for (unit, l) in LENGTH_UNITS.iter().zip(scope.lengths.iter().flatten()) {
                let mut put = |statistic: &str, value: String| {
                    push("length", key, unit, statistic, plain(value))
                };
                put("games", l.games.to_string());
                put("mean", format_length(l.mean));
                put("sd", l.sd.map(format_length).unwrap_or_default());
                put("min", l.min.to_string());
                put("q1", format_length(l.q1));
                put("median", format_length(l.median));
                put("q3", format_length(l.q3));
                put("max", l.max.to_string());
            }
            for (reason, [won0, won1, drawn]) in &scope.ends {
                push("end", key, reason, "seat0_wins", plain(won0.to_string()));
                push("end", key, reason, "seat1_wins", plain(won1.to_string()));
                push("end", key, reason, "draws", plain(drawn.to_string()));
            }
        }
        rows
    }
}
