//! The feeds' values mapped to ours (`docs/parser.md`, mapping tables).
//! A value is normalised (lower case, `ё` as `е`, `_` and `-` as spaces)
//! and looked up by its first word, so "Внедорожник 5 дв.", "ALLROAD_5_DOORS"
//! and "внедорожник" are one. Anything else is `None`: the row is refused,
//! never guessed.

use crate::domain::cars::{
    BodyType, CarState, CarStatus, Drivetrain, FuelType, Transmission, Wheel,
};

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

/// A body word's spelling folded for comparison: [`normalise`]d, `э` as
/// `е` ("Хэтчбек" and "Хетчбэк" are one).
pub fn fold(value: &str) -> String {
    normalise(value).replace('э', "е")
}

/// What a feed's body word names: a slug and the two labels a new type of
/// that name gets (`docs/parser.md`, body types).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyGuess {
    pub slug: BodyType,
    pub single: String,
    pub plural: String,
}

/// The marketplaces' body words (first word, folded) and the type each
/// names: the spec's six and the types real stock has beyond them.
const KNOWN_BODIES: &[(&[&str], &str, &str, &str)] = &[
    (&["седан", "sedan"], "sedan", "Седан", "Седаны"),
    (
        &["хетчбек", "hatchback"],
        "hatchback",
        "Хэтчбек",
        "Хэтчбеки",
    ),
    (
        &["кроссовер", "crossover"],
        "crossover",
        "Кроссовер",
        "Кроссоверы",
    ),
    (
        &["универсал", "wagon", "universal", "estate"],
        "wagon",
        "Универсал",
        "Универсалы",
    ),
    // Our `coupe` is shown as an SUV (docs/glossary.md).
    (
        &["внедорожник", "allroad", "suv", "jeep", "offroad"],
        "coupe",
        "Внедорожник",
        "Внедорожники",
    ),
    (&["пикап", "pickup"], "pickup", "Пикап", "Пикапы"),
    (&["лифтбек", "liftback"], "liftback", "Лифтбек", "Лифтбеки"),
    (&["фастбек", "fastback"], "fastback", "Фастбек", "Фастбеки"),
    (&["минивен", "minivan"], "minivan", "Минивэн", "Минивэны"),
    (
        &["компактвен", "compactvan"],
        "compactvan",
        "Компактвэн",
        "Компактвэны",
    ),
    // A coupe proper: `coupe` is taken by the SUVs.
    (&["купе", "coupe"], "kupe", "Купе", "Купе"),
    (
        &["кабриолет", "cabrio", "cabriolet", "convertible"],
        "cabriolet",
        "Кабриолет",
        "Кабриолеты",
    ),
    (&["родстер", "roadster"], "roadster", "Родстер", "Родстеры"),
    (&["фургон", "van"], "van", "Фургон", "Фургоны"),
    (
        &["микроавтобус", "minibus"],
        "minibus",
        "Микроавтобус",
        "Микроавтобусы",
    ),
    (
        &["лимузин", "limousine"],
        "limousine",
        "Лимузин",
        "Лимузины",
    ),
    (&["тарга", "targa"], "targa", "Тарга", "Тарги"),
];

/// The folded first word of a body value ("Внедорожник 5 дв." → "внедорожник").
pub fn body_word(value: &str) -> String {
    fold(value)
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The type a body word names: a known spelling, else a new type named
/// after the word itself (slug transliterated, labels from the word).
/// `None` for an empty value.
pub fn body_guess(value: &str) -> Option<BodyGuess> {
    let word = body_word(value);
    if word.is_empty() {
        return None;
    }
    if let Some((_, slug, single, plural)) = KNOWN_BODIES
        .iter()
        .find(|(words, ..)| words.contains(&word.as_str()))
    {
        return Some(BodyGuess {
            slug: BodyType::parse(slug)?,
            single: (*single).into(),
            plural: (*plural).into(),
        });
    }
    let original = value
        .trim()
        .split(|c: char| c.is_whitespace() || matches!(c, '_' | '-' | '/' | ',' | '.'))
        .find(|w| !w.is_empty())?;
    let single: String = {
        let lower = original.to_lowercase();
        let mut chars = lower.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    };
    let slug: String = crate::domain::slug::slugify(&single)
        .chars()
        .take(BodyType::MAX_LEN)
        .collect();
    let slug = BodyType::parse(slug.trim_end_matches('-'))?;
    Some(BodyGuess {
        plural: plural_of(&single),
        single: single.chars().take(100).collect(),
        slug,
    })
}

/// A Russian noun's plural, near enough for a label staff can edit:
/// "Фаэтон" → "Фаэтоны", "Тарга" → "Тарги"; indeclinable ones stay.
fn plural_of(word: &str) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    let Some(&last) = chars.last() else {
        return String::new();
    };
    let before = chars.len().checked_sub(2).map(|i| chars[i]);
    let soft = |c: Option<char>| matches!(c, Some('к' | 'г' | 'х' | 'ж' | 'ш' | 'щ' | 'ч'));
    match last {
        'к' | 'г' | 'х' | 'ж' | 'ш' | 'щ' | 'ч' => chars.push('и'),
        'а' => {
            chars.pop();
            chars.push(if soft(before) { 'и' } else { 'ы' });
        }
        'й' | 'ь' | 'я' => {
            chars.pop();
            chars.push('и');
        }
        'б' | 'в' | 'д' | 'з' | 'л' | 'м' | 'н' | 'п' | 'р' | 'с' | 'т' | 'ф' | 'ц' => {
            chars.push('ы');
        }
        _ => {}
    }
    chars
        .into_iter()
        .collect::<String>()
        .chars()
        .take(100)
        .collect()
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
        | "auto"
        | "акп"
        | "гидромеханическая"
        | "tiptronic"
        | "steptronic" => Transmission::Automatic,
        "механика" | "механическая" | "мкпп" | "mt" | "manual" | "mechanical" => {
            Transmission::Manual
        }
        "робот"
        | "роботизированная"
        | "роботизированный"
        | "amt"
        | "robot"
        | "robotic"
        | "robotized"
        | "dsg"
        | "dct"
        | "pdk"
        | "преселективная" => Transmission::Robotic,
        "вариатор" | "cvt" | "variator" => Transmission::Cvt,
        _ => return None,
    })
}

pub fn drivetrain(value: &str) -> Option<Drivetrain> {
    Some(match first_word(value).as_str() {
        "передний" | "front" | "fwd" => Drivetrain::Front,
        "задний" | "rear" | "rwd" => Drivetrain::Rear,
        "полный"
        | "all"
        | "full"
        | "4wd"
        | "awd"
        | "4x4"
        | "4х4"
        | "подключаемый"
        | "постоянный"
        | "4matic"
        | "xdrive"
        | "quattro"
        | "4motion"
        | "allgrip" => Drivetrain::All,
        _ => return None,
    })
}

pub fn fuel_type(value: &str) -> Option<FuelType> {
    Some(match first_word(value).as_str() {
        "бензин" | "бензиновый" | "petrol" | "gasoline" => FuelType::Gasoline,
        "дизель" | "дизельный" | "diesel" => FuelType::Diesel,
        "гибрид" | "гибридный" | "hybrid" => FuelType::Hybrid,
        "газ" | "gas" | "lpg" | "cng" | "пропан" | "метан" => FuelType::Gas,
        "электро"
        | "электрический"
        | "электричество"
        | "электромобиль"
        | "electro"
        | "electric" => FuelType::Electric,
        _ => return None,
    })
}

/// new | used | lease, in the feeds' words, any case: Auto.ru's `section`
/// (`new`/`used`, `NEW`/`USED`), Avito's `CarType` («Новые», «С пробегом»)
/// and `Condition` («Новое», «Б/у»), the CSV's `status` («Новый», «б/у»,
/// «подержанный»). Anything else is `None` (not a statement).
pub fn status(value: &str) -> Option<CarStatus> {
    let normal = normalise(value);
    Some(match normal.as_str() {
        "new" | "новый" | "новые" | "новая" | "новое" | "новый автомобиль" | "новые автомобили" => {
            CarStatus::New
        }
        "used"
        | "с пробегом"
        | "автомобиль с пробегом"
        | "автомобили с пробегом"
        | "б у"
        | "бу"
        | "подержанный"
        | "подержанная"
        | "подержанное"
        | "подержанные"
        | "поддержанный"
        | "бывший в употреблении" => CarStatus::Used,
        "lease" | "аренда" | "аренда с выкупом" => CarStatus::Lease,
        _ => return None,
    })
}

/// How many owners a feed says a car had: Auto.ru's `owners_number`
/// («Не было владельцев», «Один владелец», «Два владельца», «Три и более»)
/// or Avito's `Owners` (a number). `Some(0)`: none (a new car); `None`: a
/// value of no meaning here.
pub fn owners(value: &str) -> Option<u32> {
    let normal = normalise(value);
    if let Ok(count) = normal.parse::<u32>() {
        return Some(count);
    }
    if matches!(
        normal.as_str(),
        "не было владельцев"
            | "не было"
            | "нет"
            | "нет владельцев"
            | "без владельцев"
            | "no past owners"
    ) {
        return Some(0);
    }
    let first = normal.split(' ').next().unwrap_or_default();
    Some(match first {
        "один" | "одна" | "1" | "one" => 1,
        "два" | "две" | "2" | "two" => 2,
        "три" | "3" | "three" => 3,
        "четыре" | "4" | "four" => 4,
        _ => {
            // "3 и более", "1 владелец".
            let digits: String = first.chars().take_while(char::is_ascii_digit).collect();
            return digits.parse().ok();
        }
    })
}

/// A used car's state: Auto.ru's `state` («отличное», «хорошее», «среднее»,
/// «требует ремонта», any case), the CSV's words or our codes (`excellent`,
/// `needs_repair`); `None`: a value of no meaning here.
pub fn car_state(value: &str) -> Option<CarState> {
    Some(match normalise(value).as_str() {
        "отличное" | "excellent" => CarState::Excellent,
        "хорошее" | "good" => CarState::Good,
        "среднее" | "удовлетворительное" | "average" | "middle" => {
            CarState::Average
        }
        "требует ремонта" | "needs repair" | "need repair" | "beaten" => {
            CarState::NeedsRepair
        }
        _ => return None,
    })
}

/// The steering wheel's side: «Левый»/«Правый» (Auto.ru `wheel`, Avito
/// `WheelType`), `LEFT`/`RIGHT`, any case.
pub fn wheel(value: &str) -> Option<Wheel> {
    match first_word(value).as_str() {
        "левый" | "left" => Some(Wheel::Left),
        "правый" | "right" => Some(Wheel::Right),
        _ => None,
    }
}

/// Whether the car was in an accident: Avito's `Accident` («Битый» /
/// «Не битый»), the CSV's yes or no; `None`: a value of no meaning here.
pub fn accident(value: &str) -> Option<bool> {
    match normalise(value).as_str() {
        "битый" | "битая" | "да" | "был" | "было" | "yes" | "true" | "1" | "damaged" => {
            Some(true)
        }
        "не битый" | "небитый" | "не битая" | "небитая" | "нет" | "не был" | "не было" | "no"
        | "false" | "0" | "not damaged" => Some(false),
        _ => None,
    }
}

/// The words of an ad's text that call the car used ("с пробегом", "б/у",
/// "подержанный"), in the spelling they are shown with; "без пробега" is
/// not one.
pub fn used_words(text: &str) -> Vec<&'static str> {
    let padded = format!(" {} ", normalise(text));
    let mut found = Vec::new();
    for (needle, shown) in [
        (" с пробегом ", "с пробегом"),
        (" б у ", "б/у"),
        (" бу ", "б/у"),
        (" подержан", "подержанный"),
        (" поддержан", "подержанный"),
        (" бывший в употреблении ", "бывший в употреблении"),
    ] {
        if padded.contains(needle) && !found.contains(&shown) {
            found.push(shown);
        }
    }
    found
}

/// What an Auto.ru `modification_id` ("550 3.4 AT (354 л.с.) 4WD",
/// "2.0d AT (190 л.с.) 4WD", "Electro AT (150 кВт)") or an Avito
/// `Modification` says, in the tokens Auto.ru's catalogue writes.
#[derive(Debug, Default, PartialEq)]
pub struct Modification {
    pub transmission: Option<Transmission>,
    pub fuel_type: Option<FuelType>,
    pub drivetrain: Option<Drivetrain>,
    /// Litres as written, with a dot ("3.4").
    pub volume: Option<String>,
    /// Horse power (kW converted).
    pub power: Option<u32>,
}

impl Modification {
    /// Whether the text is in the catalogue's shape (a gearbox or a power
    /// figure found), not free text.
    pub fn is_catalogue(&self) -> bool {
        self.transmission.is_some() || self.power.is_some()
    }
}

/// "3.4", "2.0d", "2.5hyb", "1.5t": a volume and its mark.
fn volume_token(token: &str) -> Option<(String, Option<FuelType>)> {
    let digits_end = token
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(token.len());
    let (number, mark) = token.split_at(digits_end);
    let number = number.replace(',', ".");
    let (whole, fraction) = number.split_once('.')?;
    let shaped = (1..=2).contains(&whole.len())
        && fraction.len() == 1
        && whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit());
    if !shaped {
        return None;
    }
    let fuel = match mark {
        "" | "t" | "i" | "tsi" | "tfsi" | "turbo" => None,
        "d" | "td" | "tdi" | "crdi" => Some(FuelType::Diesel),
        "hyb" | "h" | "hybrid" | "hev" | "phev" => Some(FuelType::Hybrid),
        _ => return None,
    };
    Some((number, fuel))
}

pub fn modification(value: &str) -> Modification {
    let mut found = Modification::default();
    let tokens: Vec<String> = value
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect();
    for (i, lower) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).map_or("", String::as_str);
        let lower = lower.as_str();
        match lower {
            "at" => found.transmission = Some(Transmission::Automatic),
            "mt" => found.transmission = Some(Transmission::Manual),
            "amt" | "robot" => found.transmission = Some(Transmission::Robotic),
            "cvt" => found.transmission = Some(Transmission::Cvt),
            "4wd" | "awd" | "4x4" => found.drivetrain = Some(Drivetrain::All),
            "electro" | "ev" => found.fuel_type = Some(FuelType::Electric),
            "hyb" | "hybrid" => found.fuel_type = Some(FuelType::Hybrid),
            _ => {
                let number = lower.replace(',', ".");
                if let Ok(figure) = number.parse::<f64>() {
                    if next.starts_with("л.с") || next == "hp" || next == "лс" {
                        found.power = Some(figure.round() as u32);
                        continue;
                    }
                    if next.starts_with("квт") || next == "kw" {
                        found.power = Some((figure * 1.359_62).round() as u32);
                        continue;
                    }
                }
                if found.volume.is_none()
                    && let Some((volume, fuel)) = volume_token(lower)
                {
                    found.volume = Some(volume);
                    if fuel.is_some() {
                        found.fuel_type = fuel;
                    }
                }
            }
        }
    }
    found
}

/// The engine text built from what a feed says (`docs/parser.md`):
/// "3.4 л, 354 л.с.", "2.0 л дизель, 190 л.с.", "2.5 л гибрид, 222 л.с.",
/// "электро, 218 л.с.";
/// the fuel and the gearbox when neither volume nor power is known
/// ("Бензин, автомат"). The same text comes back from our own export.
pub fn engine_text(
    volume: Option<&str>,
    power: Option<u32>,
    fuel: FuelType,
    transmission: Transmission,
) -> String {
    let mut parts: Vec<String> = Vec::new();
    match (fuel, volume) {
        (FuelType::Electric, _) => parts.push("электро".into()),
        (FuelType::Hybrid, Some(v)) => parts.push(format!("{v} л гибрид")),
        (FuelType::Diesel, Some(v)) => parts.push(format!("{v} л дизель")),
        (_, Some(v)) => parts.push(format!("{v} л")),
        (_, None) => {}
    }
    if let Some(p) = power {
        parts.push(format!("{p} л.с."));
    }
    if volume.is_none() && power.is_none() {
        return format!("{}, {}", fuel.label(), transmission.label().to_lowercase());
    }
    parts.join(", ")
}

/// Volume and power read back from an engine text ("1.5 л, 150 л.с.",
/// "электро, 218 л.с."): what the export writes as the figures.
pub fn engine_figures(engine: &str) -> (Option<String>, Option<u32>) {
    let mut size = None;
    let mut power = None;
    let words: Vec<&str> = engine
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or_default();
        let number = word.replace(',', ".");
        let Ok(figure) = number.parse::<f64>() else {
            continue;
        };
        if next == "л" && size.is_none() && number.contains('.') {
            size = Some(number);
        } else if (next.starts_with("л.с") || next == "hp") && power.is_none() {
            power = Some(figure.round() as u32);
        } else if next.to_lowercase().starts_with("квт") && power.is_none() {
            power = Some((figure * 1.359_62).round() as u32);
        }
    }
    (size, power)
}

/// Auto.ru's `modification_id` for a car: "1.5 AMT (150 л.с.) 4WD",
/// "2.0d AT (190 л.с.)", "Electro AT (204 л.с.)".
pub fn modification_text(
    engine: &str,
    fuel: FuelType,
    transmission: Transmission,
    drivetrain: Option<Drivetrain>,
) -> String {
    let (volume, power) = engine_figures(engine);
    let mut parts: Vec<String> = Vec::new();
    match (fuel, volume) {
        (FuelType::Electric, _) => parts.push("Electro".into()),
        (FuelType::Diesel, Some(v)) => parts.push(format!("{v}d")),
        (FuelType::Hybrid, Some(v)) => parts.push(format!("{v}hyb")),
        (_, Some(v)) => parts.push(v),
        (_, None) => {}
    }
    parts.push(gearbox_token(transmission).into());
    if let Some(p) = power {
        parts.push(format!("({p} л.с.)"));
    }
    if drivetrain == Some(Drivetrain::All) {
        parts.push("4WD".into());
    }
    parts.join(" ")
}

/// The Avito word for a body type (export): the spec's six in Avito's
/// spelling, any other type by its single label, which the importer maps
/// back to it.
pub fn body_type_word<'a>(body: &BodyType, label: &'a str) -> &'a str {
    match body.as_str() {
        "sedan" => "Седан",
        "hatchback" => "Хетчбэк",
        // Neither marketplace has crossovers apart from SUVs.
        "crossover" | "coupe" => "Внедорожник",
        "wagon" => "Универсал",
        "pickup" => "Пикап",
        _ => label,
    }
}

/// Auto.ru's spelling of a body type (its dictionary's descriptions).
pub fn autoru_body_type<'a>(body: &BodyType, label: &'a str) -> &'a str {
    match body.as_str() {
        "sedan" => "Седан",
        "hatchback" => "Хэтчбек 5 дв.",
        "crossover" | "coupe" => "Внедорожник 5 дв.",
        "wagon" => "Универсал 5 дв.",
        "pickup" => "Пикап Двойная кабина",
        _ => label,
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

    fn slug(value: &str) -> String {
        body_guess(value).unwrap().slug.as_str().to_string()
    }

    #[test]
    fn state_wheel_and_accident_read_both_marketplaces_words() {
        assert_eq!(car_state("Отличное"), Some(CarState::Excellent));
        assert_eq!(car_state("ТРЕБУЕТ РЕМОНТА"), Some(CarState::NeedsRepair));
        assert_eq!(car_state("needs_repair"), Some(CarState::NeedsRepair));
        assert_eq!(car_state("среднее"), Some(CarState::Average));
        assert_eq!(car_state("Новый"), None);
        assert_eq!(wheel("Правый"), Some(Wheel::Right));
        assert_eq!(wheel("LEFT"), Some(Wheel::Left));
        assert_eq!(wheel("right"), Some(Wheel::Right));
        assert_eq!(wheel("сбоку"), None);
        assert_eq!(accident("Битый"), Some(true));
        assert_eq!(accident("Не битый"), Some(false));
        assert_eq!(accident("нет"), Some(false));
        assert_eq!(accident("может быть"), None);
    }

    #[test]
    fn body_words_of_both_marketplaces_name_a_type() {
        assert_eq!(slug("Внедорожник 5 дв."), "coupe");
        assert_eq!(slug("ALLROAD_5_DOORS"), "coupe");
        assert_eq!(slug("Хетчбэк"), "hatchback");
        assert_eq!(slug("Хэтчбек 3 дв."), "hatchback");
        assert_eq!(slug("Седан-хардтоп"), "sedan");
        assert_eq!(slug("Кабриолет"), "cabriolet");
        assert_eq!(slug("Купе"), "kupe");
        assert_eq!(slug("Минивэн L"), "minivan");
        assert_eq!(slug("минивен"), "minivan");
        assert_eq!(slug("Пикап Одинарная кабина"), "pickup");
        assert_eq!(slug("Лифтбек"), "liftback");
        let unknown = body_guess("Фаэтон").unwrap();
        assert_eq!(unknown.slug.as_str(), "faeton");
        assert_eq!(
            (unknown.single.as_str(), unknown.plural.as_str()),
            ("Фаэтон", "Фаэтоны")
        );
        assert_eq!(body_guess("  "), None);
        assert_eq!(plural_of("Тарга"), "Тарги");
        assert_eq!(plural_of("Купе"), "Купе");
    }

    #[test]
    fn spellings_of_both_marketplaces_map_to_ours() {
        assert_eq!(transmission("Автомат"), Some(Transmission::Automatic));
        assert_eq!(transmission("Робот"), Some(Transmission::Robotic));
        assert_eq!(drivetrain("Полный"), Some(Drivetrain::All));
        assert_eq!(drivetrain("Подключаемый полный"), Some(Drivetrain::All));
        assert_eq!(drivetrain("4х4"), Some(Drivetrain::All));
        assert_eq!(transmission("DSG"), Some(Transmission::Robotic));
        assert_eq!(fuel_type("Бензин"), Some(FuelType::Gasoline));
        assert_eq!(fuel_type("Газ"), Some(FuelType::Gas));
        assert_eq!(status("С пробегом"), Some(CarStatus::Used));
        assert_eq!(status("Б/у"), Some(CarStatus::Used));
        for word in ["Новый", "Новые", "новая", "NEW", "new", "New", "Новое"] {
            assert_eq!(status(word), Some(CarStatus::New), "{word}");
        }
        for word in ["С пробегом", "б/у", "Б/У", "подержанный", "USED", "Used"]
        {
            assert_eq!(status(word), Some(CarStatus::Used), "{word}");
        }
        // Auto.ru's `state` is a condition, not a status.
        assert_eq!(status("Отличное"), None);
        assert_eq!(owners("Не было владельцев"), Some(0));
        assert_eq!(owners("0"), Some(0));
        assert_eq!(owners("один владелец"), Some(1));
        assert_eq!(owners("Два владельца"), Some(2));
        assert_eq!(owners("Три и более"), Some(3));
        assert_eq!(owners("2"), Some(2));
        assert_eq!(owners("Оригинал"), None);
        assert_eq!(
            used_words("Автомобиль с пробегом, б/у, подержанный"),
            ["с пробегом", "б/у", "подержанный"]
        );
        assert!(used_words("Новый автомобиль без пробега, бузина").is_empty());
        let m = modification("2.0d AT (150 л.с.) 4WD");
        assert_eq!(m.transmission, Some(Transmission::Automatic));
        assert_eq!(m.fuel_type, Some(FuelType::Diesel));
        assert_eq!(m.drivetrain, Some(Drivetrain::All));
        assert_eq!((m.volume.as_deref(), m.power), (Some("2.0"), Some(150)));
        let m = modification("550 3.4 AT (354 л.с.) 4WD");
        assert_eq!((m.volume.as_deref(), m.power), (Some("3.4"), Some(354)));
        let m = modification("1.6 CVT (117 л.с.)");
        assert_eq!(m.transmission, Some(Transmission::Cvt));
        assert_eq!((m.fuel_type, m.drivetrain), (None, None));
        let m = modification("Electro AT (150 кВт)");
        assert_eq!(
            (m.fuel_type, m.power),
            (Some(FuelType::Electric), Some(204))
        );
        let m = modification("2.5hyb CVT (222 л.с.) 4WD");
        assert_eq!(m.fuel_type, Some(FuelType::Hybrid));
        assert!(!modification("1.5 л турбо").is_catalogue());
    }

    #[test]
    fn engine_text_goes_out_as_a_modification_and_back_unchanged() {
        for (engine, fuel, gearbox, drive) in [
            (
                "1.5 л, 150 л.с.",
                FuelType::Gasoline,
                Transmission::Robotic,
                Some(Drivetrain::Front),
            ),
            (
                "2.0 л дизель, 190 л.с.",
                FuelType::Diesel,
                Transmission::Automatic,
                Some(Drivetrain::All),
            ),
            (
                "2.5 л гибрид, 222 л.с.",
                FuelType::Hybrid,
                Transmission::Cvt,
                None,
            ),
            (
                "электро, 218 л.с.",
                FuelType::Electric,
                Transmission::Automatic,
                Some(Drivetrain::Rear),
            ),
        ] {
            let text = modification_text(engine, fuel, gearbox, drive);
            let m = modification(&text);
            assert_eq!(m.transmission, Some(gearbox), "{text}");
            assert_eq!(m.fuel_type.unwrap_or(FuelType::Gasoline), fuel, "{text}");
            let back = engine_text(m.volume.as_deref(), m.power, fuel, gearbox);
            assert_eq!(back, engine, "{text}");
        }
        assert_eq!(
            engine_text(None, None, FuelType::Gasoline, Transmission::Automatic),
            "Бензин, автомат"
        );
    }
}
