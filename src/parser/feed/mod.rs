//! Reading a feed: Auto.ru dealer XML (`<data><cars><car>`), Avito Autoload
//! XML (`<Ads><Ad>`) or CSV, told apart by content. Each record becomes a
//! [`FeedCar`] or a [`RowError`] naming the row and the field; a document
//! that cannot be read at all (broken XML, a DOCTYPE declaring entities) is
//! a [`FeedError`]: nothing of it is used, so a truncated feed never makes
//! the cars after the break look gone. Rules: `docs/parser.md`.
//!
//! The pieces: `parsed` (what a feed is read into), `read` (the entry,
//! [`parse`]: encoding, the format told apart, repeats refused), `xml`
//! (Auto.ru and Avito), `csv`, `fields` (the rules of each field, shared),
//! `record` (what the readers share), `condition` (new or used from what a
//! record says), `car_fields` (owners, accident, state and wheel).

mod car_fields;
mod condition;
mod csv;
mod fields;
mod parsed;
mod read;
mod record;
mod skip;
mod xml;

pub use condition::DELIVERY_KM;
pub use csv::*;
pub use parsed::*;
pub use read::*;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::domain::cars::{CarStatus, Drivetrain, FuelType, Transmission};
    use crate::domain::money::Money;

    const AUTORU: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<data>
  <cars>
    <car>
      <unique_id>A-1</unique_id>
      <mark_id>Hyundai</mark_id>
      <folder_id>Sonata</folder_id>
      <modification_id>2.0 AT (150 л.с.)</modification_id>
      <body_type>Седан</body_type>
      <drive>передний</drive>
      <year>2022</year>
      <price>2575000</price>
      <currency>RUR</currency>
      <vin>XWBCA41ZXDK259205</vin>
      <max_discount>90000</max_discount>
      <images><image>https://example.ru/1.jpg</image><image>https://example.ru/2.jpg</image></images>
    </car>
    <car>
      <unique_id>A-2</unique_id>
      <mark_id>Hyundai</mark_id>
      <folder_id>Creta</folder_id>
      <modification_id>1.6 AT (123 л.с.)</modification_id>
      <body_type>Кабриолет</body_type>
      <drive>передний</drive>
      <year>2022</year>
      <price>2000000</price>
    </car>
  </cars>
</data>"#;

    #[test]
    fn autoru_rows_and_errors() {
        let parsed = parse(AUTORU.as_bytes(), 2026).unwrap();
        assert_eq!(parsed.format, Some(FeedFormat::Autoru));
        assert_eq!(parsed.cars.len(), 2);
        let car = &parsed.cars[0];
        assert_eq!(car.transmission, Transmission::Automatic);
        assert_eq!(car.fuel_type, FuelType::Gasoline);
        assert_eq!(car.photos.len(), 2);
        assert_eq!(
            car.discounts.as_ref().unwrap().max,
            Some(Money::from_rubles(90_000))
        );
        // A body type beyond the six is a car, not an error; its drive is
        // not stated.
        assert_eq!(parsed.errors, vec![]);
        assert_eq!(parsed.cars[1].body, "Кабриолет");
        assert_eq!(parsed.cars[1].drivetrain, Some(Drivetrain::Front));
    }

    #[test]
    fn entities_are_never_expanded() {
        let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<data><cars><car><mark_id>&lol2;</mark_id></car></cars></data>"#;
        let err = parse(laughs.as_bytes(), 2026).unwrap_err();
        assert!(err.0.contains("ENTITY"), "{err}");
        let undeclared = "<data><cars><car><mark_id>&lol;</mark_id></car></cars></data>";
        let err = parse(undeclared.as_bytes(), 2026).unwrap_err();
        assert!(err.0.contains("&lol;"), "{err}");
    }

    #[test]
    fn windows_1251_feeds_read_as_their_declaration_says() {
        let xml = AUTORU.replace(r#"encoding="UTF-8""#, r#"encoding="windows-1251""#);
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&xml);
        let parsed = parse(&bytes, 2026).unwrap();
        assert_eq!(parsed.cars[0].body, "Седан");
        assert_eq!(parsed.cars[0].engine, "2.0 л, 150 л.с.");
        let csv = "id;brand;model;year;price;body_type;transmission;fuel_type\n\
                   K-1;Лада;Веста;2024;1 650 000 руб.;Седан;Механика;Бензин\n";
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(csv);
        assert!(std::str::from_utf8(&bytes).is_err());
        let parsed = parse(&bytes, 2026).unwrap();
        assert_eq!(parsed.cars[0].model, "Веста");
        assert_eq!(parsed.cars[0].price, Money::from_rubles(1_650_000));
        assert_eq!(parsed.cars[0].drivetrain, None);
    }

    #[test]
    fn what_a_car_can_be_sold_without_is_a_warning() {
        let xml = r#"<data><cars><car>
            <unique_id>J-1</unique_id><mark_id>Toyota</mark_id><folder_id>Land Cruiser Prado, 150</folder_id>
            <modification_id>2.8d AT</modification_id><body_type>Внедорожник 5 дв.</body_type>
            <drive>Гусеничный</drive><year>2015</year><price>3 900 000</price><run>210 000 км</run>
            <vin>GRJ150-0012345</vin><section>used</section><state>Отличное</state>
            <max_discount>5000000</max_discount>
        </car></cars></data>"#;
        let parsed = parse(xml.as_bytes(), 2026).unwrap();
        assert_eq!(parsed.errors, vec![]);
        let car = &parsed.cars[0];
        assert_eq!((car.status, car.mileage), (Some(CarStatus::Used), 210_000));
        assert_eq!((car.drivetrain, car.vin.as_deref()), (None, None));
        assert_eq!(car.fuel_type, FuelType::Diesel);
        assert_eq!(car.engine, "2.8 л дизель");
        assert_eq!(car.discounts.as_ref().unwrap().max, None);
        let fields: Vec<&str> = car.warnings.iter().map(|w| w.field.as_str()).collect();
        assert_eq!(fields, ["discount", "drivetrain", "power", "trim", "vin"]);
        assert!(car.warnings[1].message.contains("Гусеничный"));
    }

    #[test]
    fn a_car_at_zero_rubles_is_a_row_error() {
        let csv = "id;brand;model;year;price;body_type;transmission;fuel_type\n\
                   K-1;Лада;Веста;2024;0;Седан;Механика;Бензин\n\
                   K-2;Лада;Веста;2024;1 650 000;Седан;Механика;Бензин\n";
        let parsed = parse(csv.as_bytes(), 2026).unwrap();
        assert_eq!(parsed.cars.len(), 1);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].field.as_deref(), Some("price"));
        assert_eq!(
            parsed.errors[0].message,
            "Укажите цену: автомобиль за 0 ₽ не публикуется"
        );
    }

    #[test]
    fn broken_xml_names_its_line() {
        let broken = "<data>\n<cars>\n<car>\n<mark_id>X</mark>\n</car></cars></data>";
        let err = parse(broken.as_bytes(), 2026).unwrap_err();
        assert!(err.0.contains("строке 4"), "{err}");
    }
}
