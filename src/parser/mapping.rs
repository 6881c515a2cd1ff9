//! The feeds' values mapped to ours (`docs/parser.md`, mapping tables).
//! A value is normalised (lower case, `ё` as `е`, `_` and `-` as spaces)
//! and looked up by its first word, so "Внедорожник 5 дв.", "ALLROAD_5_DOORS"
//! and "внедорожник" are one. Anything else is `None`: the row is refused,
//! never guessed.

use crate::domain::cars::{BodyType, CarStatus, Drivetrain, FuelType, Transmission};

/// Lower case, `ё` → `е`, separators → one space, trimmed.
pub fn normalise(value: &str) -> String {
    let lowered: String = value
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'ё' => 'е',
            '_' | '-' | '/' | ',' | '.' => ' ',
            other => other,
        })
        .collect();
    lowered.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn first_word(value: &str) -> String {
    normalise(value)
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

pub fn body_type(value: &str) -> Option<BodyType> {
    Some(match first_word(value).as_str() {
        "седан" | "sedan" => BodyType::Sedan,
        "хэтчбек" | "хетчбэк" | "хэтчбэк" | "хетчбек" | "лифтбек" | "фастбек" | "hatchback"
        | "liftback" | "fastback" => BodyType::Hatchback,
        "кроссовер" | "crossover" => BodyType::Crossover,
        "универсал" | "wagon" | "universal" => BodyType::Wagon,
        // Our `coupe` is shown as an SUV (docs/glossary.md).
        "внедорожник" | "allroad" | "suv" | "jeep" => BodyType::Coupe,
        "пикап" | "pickup" => BodyType::Pickup,
        _ => return None,
    })
}

pub fn transmission(value: &str) -> Option<Transmission> {
    Some(match first_word(value).as_str() {
        "автомат"
        | "автоматическая"
        | "автоматическая,"
        | "акпп"
        | "at"
        | "automatic"
        | "automat"
        | "auto" => Transmission::Automatic,
        "механика" | "механическая" | "мкпп" | "mt" | "manual" | "mechanical" => {
            Transmission::Manual
        }
        "робот" | "роботизированная" | "amt" | "robot" | "robotic" | "robotized" => {
            Transmission::Robotic
        }
        "вариатор" | "cvt" | "variator" => Transmission::Cvt,
        _ => return None,
    })
}

pub fn drivetrain(value: &str) -> Option<Drivetrain> {
    Some(match first_word(value).as_str() {
        "передний" | "front" | "fwd" => Drivetrain::Front,
        "задний" | "rear" | "rwd" => Drivetrain::Rear,
        "полный" | "all" | "full" | "4wd" | "awd" | "4x4" => Drivetrain::All,
        _ => return None,
    })
}

pub fn fuel_type(value: &str) -> Option<FuelType> {
    Some(match first_word(value).as_str() {
        "бензин" | "бензиновый" | "petrol" | "gasoline" => FuelType::Gasoline,
        "дизель" | "дизельный" | "diesel" => FuelType::Diesel,
        "гибрид" | "гибридный" | "hybrid" => FuelType::Hybrid,
        "электро"
        | "электрический"
        | "электричество"
        | "электромобиль"
        | "electro"
        | "electric" => FuelType::Electric,
        _ => return None,
    })
}

/// new | used | lease, in the feeds' words ("Новый", "С пробегом", "б/у").
pub fn status(value: &str) -> Option<CarStatus> {
    let normal = normalise(value);
    Some(match normal.as_str() {
        "new" | "новый" | "новые" | "новая" | "новое" | "новый автомобиль" => {
            CarStatus::New
        }
        "used" | "с пробегом" | "б у" | "бу" | "подержанный" | "подержанные" => {
            CarStatus::Used
        }
        "lease" | "аренда" | "аренда с выкупом" => CarStatus::Lease,
        _ => return None,
    })
}

/// Gearbox, fuel and drive read from an Auto.ru `modification_id` such as
/// "2.0d AT (150 л.с.) 4WD": the tokens Auto.ru's catalogue writes.
pub struct Modification {
    pub transmission: Option<Transmission>,
    pub fuel_type: Option<FuelType>,
    pub drivetrain: Option<Drivetrain>,
}

pub fn modification(value: &str) -> Modification {
    let mut found = Modification {
        transmission: None,
        fuel_type: None,
        drivetrain: None,
    };
    for token in value.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        let lower = token.to_lowercase();
        match lower.as_str() {
            "at" => found.transmission = Some(Transmission::Automatic),
            "mt" => found.transmission = Some(Transmission::Manual),
            "amt" => found.transmission = Some(Transmission::Robotic),
            "cvt" => found.transmission = Some(Transmission::Cvt),
            "4wd" | "awd" => found.drivetrain = Some(Drivetrain::All),
            "electro" => found.fuel_type = Some(FuelType::Electric),
            "hyb" | "hybrid" => found.fuel_type = Some(FuelType::Hybrid),
            _ => {
                // "2.0d": a volume with Auto.ru's diesel mark.
                let volume = lower.trim_end_matches('d');
                if lower.ends_with('d')
                    && volume.len() >= 3
                    && volume.contains('.')
                    && volume.chars().all(|c| c.is_ascii_digit() || c == '.')
                {
                    found.fuel_type = Some(FuelType::Diesel);
                }
            }
        }
    }
    found
}

/// The Avito/Auto.ru word for our body type (export).
pub fn body_type_word(body: BodyType) -> &'static str {
    match body {
        BodyType::Sedan => "Седан",
        BodyType::Hatchback => "Хетчбэк",
        // Neither marketplace has crossovers apart from SUVs.
        BodyType::Crossover | BodyType::Coupe => "Внедорожник",
        BodyType::Wagon => "Универсал",
        BodyType::Pickup => "Пикап",
    }
}

/// Auto.ru's spelling of a body type (its dictionary's descriptions).
pub fn autoru_body_type(body: BodyType) -> &'static str {
    match body {
        BodyType::Sedan => "Седан",
        BodyType::Hatchback => "Хэтчбек 5 дв.",
        BodyType::Crossover | BodyType::Coupe => "Внедорожник 5 дв.",
        BodyType::Wagon => "Универсал 5 дв.",
        BodyType::Pickup => "Пикап Двойная кабина",
    }
}

/// Auto.ru's gearbox token of a modification.
pub fn gearbox_token(t: Transmission) -> &'static str {
    match t {
        Transmission::Automatic => "AT",
        Transmission::Manual => "MT",
        Transmission::Robotic => "AMT",
        Transmission::Cvt => "CVT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_both_marketplaces_map_to_ours() {
        assert_eq!(body_type("Внедорожник 5 дв."), Some(BodyType::Coupe));
        assert_eq!(body_type("ALLROAD_5_DOORS"), Some(BodyType::Coupe));
        assert_eq!(body_type("Хетчбэк"), Some(BodyType::Hatchback));
        assert_eq!(body_type("Седан-хардтоп"), Some(BodyType::Sedan));
        assert_eq!(body_type("Кабриолет"), None);
        assert_eq!(body_type("Купе"), None);
        assert_eq!(transmission("Автомат"), Some(Transmission::Automatic));
        assert_eq!(transmission("Робот"), Some(Transmission::Robotic));
        assert_eq!(drivetrain("Полный"), Some(Drivetrain::All));
        assert_eq!(fuel_type("Бензин"), Some(FuelType::Gasoline));
        assert_eq!(fuel_type("Газ"), None);
        assert_eq!(status("С пробегом"), Some(CarStatus::Used));
        assert_eq!(status("Б/у"), Some(CarStatus::Used));
        let m = modification("2.0d AT (150 л.с.) 4WD");
        assert_eq!(m.transmission, Some(Transmission::Automatic));
        assert_eq!(m.fuel_type, Some(FuelType::Diesel));
        assert_eq!(m.drivetrain, Some(Drivetrain::All));
        let m = modification("1.6 CVT (117 л.с.)");
        assert_eq!(m.transmission, Some(Transmission::Cvt));
        assert_eq!(m.fuel_type, None);
    }
}
