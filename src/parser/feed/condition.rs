//! A car's condition from what its record says (`docs/parser.md`,
//! "Condition"): a stated word (Auto.ru `section`, Avito `CarType` or
//! `Condition`, the CSV `status`) wins; otherwise decisive used evidence
//! (mileage past delivery, owners, Auto.ru `state` or `registry_year`, "с
//! пробегом" in the text) makes it used; otherwise nothing is known and the
//! feed's default applies when the run is planned. Every sign of a used car
//! is listed for the preview's warning, also when the record says new.

use super::record::Record;
use crate::domain::cars::CarStatus;
use crate::parser::mapping;

/// The most a new car's odometer shows from delivery alone: the transporter
/// from the factory or port, the pre-sale check and moves in the yard add
/// tens of kilometres. Neither marketplace counts mileage for a new car
/// (Avito asks `Kilometrage` of used cars only, Auto.ru `run` of the used
/// section), so past this a mileage is a used car's.
pub const DELIVERY_KM: i64 = 100;

/// What a record holds that bears on its condition, each as the feed wrote it.
#[derive(Default)]
pub(super) struct ConditionFacts {
    /// The stated word ("used", «С пробегом», «Новый»).
    pub(super) stated: Option<String>,
    /// The mileage, when the record carries one.
    pub(super) mileage: Option<i64>,
    /// Auto.ru `owners_number`, Avito `Owners`, the CSV `owners`.
    pub(super) owners: Option<String>,
    /// Auto.ru `state` («Отличное»): only used cars have one.
    pub(super) state: Option<String>,
    /// Auto.ru `registry_year`: the year the car was first registered.
    pub(super) registry_year: Option<String>,
    /// Texts that may call the car used: (where, in the prepositional case,
    /// the text) — ("описании", Description), ("заголовке", Title).
    pub(super) texts: Vec<(&'static str, String)>,
    pub(super) year: i32,
}

impl ConditionFacts {
    /// The facts of a record by its elements' names; `stated` are tried in
    /// order, the first that is a status word counts.
    pub(super) fn of(
        record: &Record,
        stated: &[&str],
        owners: &[&str],
        texts: &[(&str, &'static str)],
    ) -> ConditionFacts {
        let stated = stated
            .iter()
            .filter_map(|name| record.first(&[name]).map(|(_, v)| v))
            .find(|v| mapping::status(v).is_some());
        ConditionFacts {
            stated,
            owners: record.first(owners).map(|(_, v)| v),
            texts: texts
                .iter()
                .filter_map(|(name, place)| record.first(&[name]).map(|(_, v)| (*place, v)))
                .collect(),
            ..ConditionFacts::default()
        }
    }
}

/// The condition a record gives: its status (None: nothing to go on) and
/// every sign of a used car, in Russian.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Condition {
    pub(super) status: Option<CarStatus>,
    pub(super) used_signs: Vec<String>,
}

/// "45 000": thousands apart by a space, as the preview writes numbers.
fn grouped(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

pub(super) fn condition(facts: &ConditionFacts, current_year: i32) -> Condition {
    let mut signs: Vec<String> = Vec::new();
    if let Some(km) = facts.mileage.filter(|km| *km > DELIVERY_KM) {
        signs.push(format!("пробег {} км", grouped(km)));
    }
    if let Some(owners) = &facts.owners
        && mapping::owners(owners).is_some_and(|n| n > 0)
    {
        signs.push(format!("владельцев: {owners}"));
    }
    // A `state` that is a status word («Новый») is a statement, not a sign.
    if let Some(state) = facts
        .state
        .as_ref()
        .filter(|s| mapping::status(s).is_none())
    {
        signs.push(format!("состояние: {state}"));
    }
    if let Some(registered) = &facts.registry_year {
        signs.push(format!("поставлен на учёт: {registered}"));
    }
    for (place, text) in &facts.texts {
        for word in mapping::used_words(text) {
            signs.push(format!("„{word}“ в {place}"));
        }
    }
    // Everything so far is decisive; an old year only warns (dealers sell
    // the last two years' stock new).
    let decisive = !signs.is_empty();
    if facts.year <= current_year - 3 {
        signs.push(format!("{} год выпуска", facts.year));
    }
    let stated = facts
        .stated
        .as_deref()
        .and_then(mapping::status)
        .or_else(|| {
            facts
                .state
                .as_deref()
                .and_then(mapping::status)
                .filter(|s| *s == CarStatus::New)
        });
    Condition {
        status: stated.or(decisive.then_some(CarStatus::Used)),
        used_signs: signs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(year: i32) -> ConditionFacts {
        ConditionFacts {
            year,
            ..ConditionFacts::default()
        }
    }

    #[test]
    fn a_stated_word_wins_and_the_signs_stay() {
        let mut record = facts(2025);
        record.stated = Some("NEW".into());
        record.mileage = Some(45_000);
        record.owners = Some("Два владельца".into());
        let found = condition(&record, 2026);
        assert_eq!(found.status, Some(CarStatus::New));
        assert_eq!(
            found.used_signs,
            ["пробег 45 000 км", "владельцев: Два владельца"]
        );
        record.stated = Some("б/у".into());
        assert_eq!(condition(&record, 2026).status, Some(CarStatus::Used));
    }

    #[test]
    fn decisive_evidence_makes_a_car_used() {
        for (what, facts) in [
            (
                "mileage",
                ConditionFacts {
                    mileage: Some(101),
                    ..facts(2025)
                },
            ),
            (
                "owners",
                ConditionFacts {
                    owners: Some("один владелец".into()),
                    ..facts(2025)
                },
            ),
            (
                "owners as a number",
                ConditionFacts {
                    owners: Some("1".into()),
                    ..facts(2025)
                },
            ),
            (
                "state",
                ConditionFacts {
                    state: Some("Отличное".into()),
                    ..facts(2025)
                },
            ),
            (
                "registry year",
                ConditionFacts {
                    registry_year: Some("2025".into()),
                    ..facts(2025)
                },
            ),
            (
                "description",
                ConditionFacts {
                    texts: vec![(
                        "описании",
                        "Автомобиль с пробегом, в хорошем состоянии".into(),
                    )],
                    ..facts(2025)
                },
            ),
        ] {
            let found = condition(&facts, 2026);
            assert_eq!(found.status, Some(CarStatus::Used), "{what}");
            assert_eq!(found.used_signs.len(), 1, "{what}: {:?}", found.used_signs);
        }
    }

    #[test]
    fn delivery_mileage_no_owners_and_an_old_year_decide_nothing() {
        let record = ConditionFacts {
            mileage: Some(DELIVERY_KM),
            owners: Some("Не было владельцев".into()),
            texts: vec![("описании", "Новый автомобиль, без пробега по РФ".into())],
            ..facts(2007)
        };
        let found = condition(&record, 2026);
        assert_eq!(found.status, None);
        assert_eq!(found.used_signs, ["2007 год выпуска"]);
        // The last two years' stock is not even a sign.
        assert_eq!(condition(&facts(2025), 2026), Condition::default());
        assert_eq!(condition(&facts(2024), 2026), Condition::default());
        assert_eq!(
            condition(&facts(2023), 2026).used_signs,
            ["2023 год выпуска"]
        );
    }

    #[test]
    fn a_state_that_says_new_is_a_statement() {
        let record = ConditionFacts {
            state: Some("Новый".into()),
            ..facts(2025)
        };
        let found = condition(&record, 2026);
        assert_eq!(found.status, Some(CarStatus::New));
        assert!(found.used_signs.is_empty());
    }
}
