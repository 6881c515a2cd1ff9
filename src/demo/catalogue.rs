//! The demo catalogue: brands sold in Russia in 2026 and the models the
//! showroom stocks, new, used and for lease.

use super::body::Body::{self, *};
use super::pictures::Mark;
use crate::domain::cars::Drivetrain::{self, *};
use crate::domain::cars::FuelType::{self, *};
use crate::domain::cars::Transmission::{self, *};

pub struct BrandSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// Emblem colours: field and ring.
    pub primary: u32,
    pub ring: u32,
    pub mark: Mark,
    /// Paints of its cars, indices into [`PAINTS`].
    pub paints: &'static [usize],
    /// Interior trim colour.
    pub trim: u32,
}

/// Car paints: the name shown as the car's colour and the colour drawn.
pub const PAINTS: &[(&str, u32)] = &[
    ("Белый", 0xe9ecee),
    ("Чёрный", 0x1b1d21),
    ("Серебристый", 0xaeb5bd),
    ("Серый", 0x5d646c),
    ("Тёмно-синий", 0x1f3158),
    ("Красный", 0xb3222c),
    ("Синий", 0x2b5ca8),
    ("Тёмно-зелёный", 0x2f5a47),
    ("Бежевый", 0xbfae8e),
    ("Оранжевый", 0xd0652c),
    ("Бордовый", 0x6d1f2b),
    ("Хаки", 0x6a6a4b),
];

pub const BRANDS: &[BrandSpec] = &[
    BrandSpec {
        name: "Haval",
        description: "Haval — крупнейший китайский производитель кроссоверов и внедорожников. Автомобили для России собирают на заводе в Тульской области, поэтому запчасти и сервис доступны без ожидания. Jolion, F7, Dargo и флагманский H9 — одни из самых популярных моделей на дорогах Петербурга.",
        primary: 0xc8102e,
        ring: 0xc3c7cc,
        mark: Mark::Bars,
        paints: &[5, 0, 3],
        trim: 0x2b2b2b,
    },
    BrandSpec {
        name: "Chery",
        description: "Chery — один из старейших автопроизводителей Китая. Кроссоверы семейства Tiggo и седан Arrizo 8 сочетают богатое оснащение, экономичные турбомоторы и гарантию до 7 лет или 200 000 км.",
        primary: 0x9b1b30,
        ring: 0xc3c7cc,
        mark: Mark::Triangle,
        paints: &[0, 2, 6],
        trim: 0x5a4636,
    },
    BrandSpec {
        name: "Geely",
        description: "Geely — технологичный автоконцерн, которому принадлежат Volvo и Lotus. Monjaro, Atlas и Coolray собирают в Беларуси на заводе «БелДжи»; в линейке есть и электрический кроссовер EX5.",
        primary: 0x1c4ba0,
        ring: 0xc9ccd1,
        mark: Mark::Shield,
        paints: &[2, 4, 0],
        trim: 0x3a3a3c,
    },
    BrandSpec {
        name: "Exeed",
        description: "Exeed — премиальная марка холдинга Chery. Кроссоверы LX, TXL, RX и VX отличаются отделкой салона с натуральной кожей, мощными моторами и полным приводом в старших версиях.",
        primary: 0x2b2f36,
        ring: 0xb08d57,
        mark: Mark::Cross,
        paints: &[1, 0, 10],
        trim: 0x7a5a3c,
    },
    BrandSpec {
        name: "Omoda",
        description: "Omoda — молодёжная марка с ярким дизайном. Кроссовер C5, седан S5 и электрический E5 предлагают цифровую приборную панель, большой экран мультимедиа и систему помощи водителю уже в базе.",
        primary: 0x0f6e6e,
        ring: 0xc3c7cc,
        mark: Mark::Ring,
        paints: &[9, 0, 3],
        trim: 0x2e2e30,
    },
    BrandSpec {
        name: "Changan",
        description: "Changan — один из «большой четвёрки» китайских автопроизводителей. В линейке кроссоверы CS35 Plus, CS55 Plus и UNI-K, лифтбек UNI-V, пикап Hunter Plus и электрический Deepal S07.",
        primary: 0x0051a5,
        ring: 0xc3c7cc,
        mark: Mark::Chevron,
        paints: &[6, 0, 2],
        trim: 0x303236,
    },
    BrandSpec {
        name: "Tank",
        description: "Tank — внедорожники на раме с понижающей передачей и блокировками. Tank 300, гибридный Tank 400 и флагманский Tank 500 одинаково уверенно чувствуют себя на трассе и на карельском бездорожье.",
        primary: 0x3b4a3f,
        ring: 0xb7b7b7,
        mark: Mark::Diamond,
        paints: &[11, 1, 0],
        trim: 0x4a3b2f,
    },
    BrandSpec {
        name: "Lada",
        description: "Lada — самая продаваемая марка в России. Vesta, Granta, Largus и Niva выпускают в Тольятти и Ижевске; их просто и недорого обслуживать в любом городе страны.",
        primary: 0x1d3f8f,
        ring: 0xc3c7cc,
        mark: Mark::Sail,
        paints: &[0, 5, 2],
        trim: 0x333333,
    },
    BrandSpec {
        name: "Kia",
        description: "Kia в нашем салоне — это автомобили с пробегом после проверки по 120 пунктам и новые автомобили параллельного импорта с гарантией дилера. Rio, Ceed, Sportage, K5 и Sorento.",
        primary: 0x05141f,
        ring: 0xc3c7cc,
        mark: Mark::Wave,
        paints: &[0, 5, 2],
        trim: 0x2f2f31,
    },
    BrandSpec {
        name: "Hyundai",
        description: "Hyundai — Solaris, Creta, Tucson и Santa Fe: надёжные автомобили с понятной историей обслуживания. Все машины с пробегом проходят диагностику и юридическую проверку.",
        primary: 0x002c5f,
        ring: 0xc3c7cc,
        mark: Mark::Ellipses,
        paints: &[0, 2, 4],
        trim: 0x3b3b3d,
    },
    BrandSpec {
        name: "Toyota",
        description: "Toyota — эталон надёжности. Camry, RAV4, Land Cruiser Prado, Land Cruiser 300 и пикап Hilux сохраняют стоимость лучше других автомобилей своего класса.",
        primary: 0xd71920,
        ring: 0xc3c7cc,
        mark: Mark::Star,
        paints: &[0, 1, 2],
        trim: 0x6b5440,
    },
    BrandSpec {
        name: "Volkswagen",
        description: "Volkswagen — немецкие Polo, Golf, Tiguan, Passat, Touareg и пикап Amarok. Проверенные автомобили с пробегом и новые машины параллельного импорта.",
        primary: 0x001e50,
        ring: 0xc3c7cc,
        mark: Mark::Quarters,
        paints: &[2, 4, 0],
        trim: 0x2c2c2e,
    },
    BrandSpec {
        name: "Skoda",
        description: "Skoda — практичные Octavia, Rapid, Karoq и Kodiaq с вместительным багажником и экономичными моторами TSI и TDI.",
        primary: 0x0e3a2f,
        ring: 0x78faae,
        mark: Mark::Wing,
        paints: &[7, 0, 2],
        trim: 0x38383a,
    },
    BrandSpec {
        name: "BMW",
        description: "BMW — седаны 3 и 5 серии, универсал Touring и кроссоверы X3 и X5 с задним и полным приводом xDrive. Автомобили с пробегом с прозрачной историей и новые машины под заказ.",
        primary: 0x1c69d4,
        ring: 0x2a2a2a,
        mark: Mark::Quarters,
        paints: &[4, 1, 0],
        trim: 0x8a5a3a,
    },
];

pub struct ModelSpec {
    pub brand: &'static str,
    pub model: &'static str,
    pub body: Body,
    pub engine: &'static str,
    pub fuel: FuelType,
    pub transmission: Transmission,
    pub drivetrain: Drivetrain,
    /// Price of a new car, in thousands of rubles.
    pub price: i64,
    /// First year the model was sold (used cars are not older).
    pub since: i32,
    pub trims: &'static [&'static str],
    /// One car per letter: n new, u used, l lease.
    pub stock: &'static str,
}

#[allow(clippy::too_many_arguments)]
const fn m(
    brand: &'static str,
    model: &'static str,
    body: Body,
    engine: &'static str,
    fuel: FuelType,
    transmission: Transmission,
    drivetrain: Drivetrain,
    price: i64,
    since: i32,
    trims: &'static [&'static str],
    stock: &'static str,
) -> ModelSpec {
    ModelSpec {
        brand,
        model,
        body,
        engine,
        fuel,
        transmission,
        drivetrain,
        price,
        since,
        trims,
        stock,
    }
}

const HAVAL: &[&str] = &["Comfort", "Elite", "Tech Plus"];
const CHERY: &[&str] = &["Family", "Ultimate", "Prestige"];
const GEELY: &[&str] = &["Comfort", "Luxury", "Flagship"];
const EXEED: &[&str] = &["Luxury", "Prestige", "Platinum"];
const OMODA: &[&str] = &["Joy", "Lifestyle", "Ultimate"];
const CHANGAN: &[&str] = &["Comfort", "Luxe", "Tech"];
const TANK: &[&str] = &["Premium", "Flagship"];
const LADA: &[&str] = &["Comfort", "Life", "Techno"];
const KIA: &[&str] = &["Classic", "Comfort", "Prestige"];
const HYUNDAI: &[&str] = &["Family", "Lifestyle", "Prestige"];
const TOYOTA: &[&str] = &["Комфорт", "Престиж", "Люкс"];
const VW: &[&str] = &["Respect", "Status", "Exclusive"];
const SKODA: &[&str] = &["Active", "Ambition", "Style"];
const BMW: &[&str] = &["Base", "M Sport"];

#[rustfmt::skip]
pub const MODELS: &[ModelSpec] = &[
    m("Haval", "Jolion", Crossover, "1.5 л, 150 л.с.", Gasoline, Robotic, Front, 2199, 2021, HAVAL, "nnul"),
    m("Haval", "F7", Crossover, "2.0 л, 190 л.с.", Gasoline, Robotic, All, 3199, 2019, HAVAL, "nu"),
    m("Haval", "Dargo", Crossover, "2.0 л, 192 л.с.", Gasoline, Robotic, All, 3399, 2022, HAVAL, "n"),
    m("Haval", "H9", Coupe, "2.0 л, 231 л.с.", Gasoline, Automatic, All, 4999, 2024, HAVAL, "n"),
    m("Haval", "M6", Crossover, "1.5 л, 150 л.с.", Gasoline, Robotic, Front, 1999, 2023, HAVAL, "l"),
    m("Tank", "300", Coupe, "2.0 л, 220 л.с.", Gasoline, Automatic, All, 4499, 2021, TANK, "nu"),
    m("Tank", "400 Hi4-T", Coupe, "2.0 л гибрид, 394 л.с.", Hybrid, Automatic, All, 6199, 2024, TANK, "n"),
    m("Tank", "500", Coupe, "3.0 л, 354 л.с.", Gasoline, Automatic, All, 6499, 2023, TANK, "n"),
    m("Chery", "Tiggo 4", Crossover, "1.5 л, 113 л.с.", Gasoline, Cvt, Front, 1799, 2019, CHERY, "nl"),
    m("Chery", "Tiggo 7 Pro Max", Crossover, "1.5 л, 147 л.с.", Gasoline, Cvt, Front, 2549, 2022, CHERY, "nnu"),
    m("Chery", "Tiggo 8 Pro Max", Crossover, "2.0 л, 197 л.с.", Gasoline, Robotic, All, 3399, 2022, CHERY, "n"),
    m("Chery", "Arrizo 8", Sedan, "1.6 л, 186 л.с.", Gasoline, Robotic, Front, 2399, 2023, CHERY, "nl"),
    m("Geely", "Coolray", Crossover, "1.5 л, 150 л.с.", Gasoline, Robotic, Front, 2349, 2020, GEELY, "nul"),
    m("Geely", "Monjaro", Crossover, "2.0 л, 238 л.с.", Gasoline, Automatic, All, 4299, 2023, GEELY, "nu"),
    m("Geely", "Atlas", Crossover, "2.0 л, 200 л.с.", Gasoline, Automatic, All, 3299, 2023, GEELY, "n"),
    m("Geely", "Emgrand", Sedan, "1.5 л, 122 л.с.", Gasoline, Cvt, Front, 1799, 2023, GEELY, "nl"),
    m("Geely", "Preface", Sedan, "2.0 л, 200 л.с.", Gasoline, Robotic, Front, 2699, 2023, GEELY, "n"),
    m("Geely", "EX5", Crossover, "электро, 218 л.с.", Electric, Automatic, Front, 3299, 2025, GEELY, "n"),
    m("Exeed", "LX", Crossover, "1.6 л, 186 л.с.", Gasoline, Robotic, Front, 2999, 2022, EXEED, "nu"),
    m("Exeed", "TXL", Crossover, "2.0 л, 197 л.с.", Gasoline, Robotic, All, 3999, 2021, EXEED, "n"),
    m("Exeed", "RX", Crossover, "2.0 л, 249 л.с.", Gasoline, Robotic, All, 4499, 2023, EXEED, "n"),
    m("Exeed", "VX", Crossover, "2.0 л, 249 л.с.", Gasoline, Robotic, All, 4999, 2021, EXEED, "u"),
    m("Omoda", "C5", Crossover, "1.5 л, 147 л.с.", Gasoline, Cvt, Front, 2399, 2022, OMODA, "nul"),
    m("Omoda", "S5", Sedan, "1.5 л, 120 л.с.", Gasoline, Cvt, Front, 1899, 2023, OMODA, "nl"),
    m("Omoda", "E5", Crossover, "электро, 204 л.с.", Electric, Automatic, Front, 3199, 2024, OMODA, "n"),
    m("Changan", "CS35 Plus", Crossover, "1.4 л, 150 л.с.", Gasoline, Robotic, Front, 2199, 2021, CHANGAN, "nl"),
    m("Changan", "CS55 Plus", Crossover, "1.5 л, 181 л.с.", Gasoline, Robotic, Front, 2699, 2022, CHANGAN, "nu"),
    m("Changan", "UNI-V", Hatchback, "1.5 л, 188 л.с.", Gasoline, Robotic, Front, 2699, 2023, CHANGAN, "nl"),
    m("Changan", "UNI-K", Crossover, "2.0 л, 226 л.с.", Gasoline, Automatic, All, 3899, 2022, CHANGAN, "n"),
    m("Changan", "Hunter Plus", Pickup, "2.0 л, 233 л.с.", Gasoline, Automatic, All, 3449, 2023, CHANGAN, "nu"),
    m("Changan", "Deepal S07", Crossover, "электро, 218 л.с.", Electric, Automatic, Rear, 3899, 2024, CHANGAN, "n"),
    m("Lada", "Vesta", Sedan, "1.6 л, 106 л.с.", Gasoline, Manual, Front, 1599, 2015, LADA, "nnul"),
    m("Lada", "Vesta", Sedan, "1.8 л, 122 л.с.", Gasoline, Cvt, Front, 1899, 2024, LADA, "n"),
    m("Lada", "Vesta SW Cross", Wagon, "1.6 л, 106 л.с.", Gasoline, Manual, Front, 1849, 2017, LADA, "nu"),
    m("Lada", "Largus", Wagon, "1.6 л, 90 л.с.", Gasoline, Manual, Front, 1699, 2015, LADA, "nl"),
    m("Lada", "Granta", Sedan, "1.6 л, 90 л.с.", Gasoline, Manual, Front, 1049, 2015, LADA, "ull"),
    m("Lada", "Granta", Hatchback, "1.6 л, 90 л.с.", Gasoline, Manual, Front, 1079, 2018, LADA, "u"),
    m("Lada", "Niva Travel", Coupe, "1.7 л, 80 л.с.", Gasoline, Manual, All, 1579, 2021, LADA, "nu"),
    m("Lada", "Niva Legend", Coupe, "1.7 л, 83 л.с.", Gasoline, Manual, All, 1169, 2015, LADA, "u"),
    m("Kia", "Rio", Sedan, "1.6 л, 123 л.с.", Gasoline, Automatic, Front, 1899, 2015, KIA, "uu"),
    m("Kia", "Ceed", Hatchback, "1.4 л, 140 л.с.", Gasoline, Robotic, Front, 2299, 2018, KIA, "u"),
    m("Kia", "Ceed SW", Wagon, "1.6 л, 128 л.с.", Gasoline, Automatic, Front, 2399, 2018, KIA, "u"),
    m("Kia", "Picanto", Hatchback, "1.2 л, 84 л.с.", Gasoline, Manual, Front, 1499, 2017, KIA, "u"),
    m("Kia", "Sportage", Crossover, "2.0 л, 150 л.с.", Gasoline, Automatic, All, 3899, 2016, KIA, "nu"),
    m("Kia", "K5", Sedan, "2.5 л, 194 л.с.", Gasoline, Automatic, Front, 3599, 2020, KIA, "nu"),
    m("Kia", "Sorento", Crossover, "2.2 л дизель, 199 л.с.", Diesel, Robotic, All, 5299, 2020, KIA, "u"),
    m("Hyundai", "Solaris", Sedan, "1.6 л, 123 л.с.", Gasoline, Manual, Front, 1599, 2015, HYUNDAI, "uu"),
    m("Hyundai", "Creta", Crossover, "1.6 л, 123 л.с.", Gasoline, Automatic, Front, 2399, 2016, HYUNDAI, "ul"),
    m("Hyundai", "Tucson", Crossover, "2.0 л, 150 л.с.", Gasoline, Automatic, All, 3799, 2021, HYUNDAI, "nu"),
    m("Hyundai", "Santa Fe", Crossover, "2.2 л дизель, 200 л.с.", Diesel, Automatic, All, 5499, 2018, HYUNDAI, "u"),
    m("Hyundai", "i30", Hatchback, "1.6 л, 130 л.с.", Gasoline, Automatic, Front, 1999, 2017, HYUNDAI, "u"),
    m("Hyundai", "Sonata", Sedan, "2.5 л, 180 л.с.", Gasoline, Automatic, Front, 3699, 2019, HYUNDAI, "u"),
    m("Toyota", "Camry", Sedan, "2.5 л, 200 л.с.", Gasoline, Automatic, Front, 4299, 2018, TOYOTA, "nuu"),
    m("Toyota", "Camry", Sedan, "2.5 л гибрид, 230 л.с.", Hybrid, Cvt, Front, 5199, 2024, TOYOTA, "n"),
    m("Toyota", "RAV4", Crossover, "2.5 л гибрид, 222 л.с.", Hybrid, Cvt, All, 4499, 2019, TOYOTA, "u"),
    m("Toyota", "Land Cruiser Prado", Coupe, "2.8 л дизель, 204 л.с.", Diesel, Automatic, All, 8999, 2017, TOYOTA, "nu"),
    m("Toyota", "Land Cruiser 300", Coupe, "3.3 л дизель, 309 л.с.", Diesel, Automatic, All, 10200, 2021, TOYOTA, "n"),
    m("Toyota", "Hilux", Pickup, "2.8 л дизель, 204 л.с.", Diesel, Automatic, All, 5299, 2016, TOYOTA, "nu"),
    m("Toyota", "Prius", Hatchback, "1.8 л гибрид, 122 л.с.", Hybrid, Cvt, Front, 2799, 2016, TOYOTA, "u"),
    m("Toyota", "Corolla", Sedan, "1.6 л, 122 л.с.", Gasoline, Cvt, Front, 2899, 2019, TOYOTA, "u"),
    m("Volkswagen", "Polo", Sedan, "1.6 л, 110 л.с.", Gasoline, Manual, Front, 1899, 2015, VW, "uu"),
    m("Volkswagen", "Golf", Hatchback, "1.4 л, 150 л.с.", Gasoline, Robotic, Front, 2599, 2016, VW, "u"),
    m("Volkswagen", "Tiguan", Crossover, "2.0 л, 180 л.с.", Gasoline, Robotic, All, 4499, 2017, VW, "nu"),
    m("Volkswagen", "Passat Variant", Wagon, "2.0 л дизель, 150 л.с.", Diesel, Robotic, Front, 2999, 2015, VW, "u"),
    m("Volkswagen", "Amarok", Pickup, "2.0 л дизель, 180 л.с.", Diesel, Manual, All, 3999, 2015, VW, "u"),
    m("Volkswagen", "Touareg", Coupe, "3.0 л дизель, 249 л.с.", Diesel, Automatic, All, 7499, 2018, VW, "u"),
    m("Skoda", "Octavia", Hatchback, "1.4 л, 150 л.с.", Gasoline, Robotic, Front, 3199, 2015, SKODA, "nu"),
    m("Skoda", "Octavia Combi", Wagon, "1.8 л, 180 л.с.", Gasoline, Robotic, Front, 3299, 2017, SKODA, "u"),
    m("Skoda", "Rapid", Hatchback, "1.6 л, 110 л.с.", Gasoline, Manual, Front, 1699, 2015, SKODA, "u"),
    m("Skoda", "Karoq", Crossover, "1.4 л, 150 л.с.", Gasoline, Automatic, Front, 2999, 2020, SKODA, "u"),
    m("Skoda", "Kodiaq", Crossover, "2.0 л дизель, 150 л.с.", Diesel, Robotic, All, 4499, 2017, SKODA, "u"),
    m("BMW", "3 серии", Sedan, "2.0 л, 184 л.с.", Gasoline, Automatic, Rear, 5299, 2016, BMW, "u"),
    m("BMW", "3 серии Touring", Wagon, "2.0 л дизель, 190 л.с.", Diesel, Automatic, All, 5499, 2016, BMW, "u"),
    m("BMW", "5 серии", Sedan, "2.0 л дизель, 190 л.с.", Diesel, Automatic, Rear, 7899, 2017, BMW, "nu"),
    m("BMW", "X3", Crossover, "2.0 л, 190 л.с.", Gasoline, Automatic, All, 7199, 2018, BMW, "nu"),
    m("BMW", "X5", Coupe, "3.0 л дизель, 298 л.с.", Diesel, Automatic, All, 10900, 2019, BMW, "nu"),
];

/// What a trim level of a given rank brings, for the trim-level list.
pub fn trim_description(rank: usize) -> &'static str {
    match rank {
        0 => {
            "Кондиционер, мультимедиа с Apple CarPlay и Android Auto, круиз-контроль, датчики парковки сзади"
        }
        1 => {
            "Климат-контроль, камера заднего вида, подогрев руля и передних сидений, легкосплавные диски 18\""
        }
        _ => {
            "Панорамная крыша, камеры кругового обзора, адаптивный круиз-контроль, кожаный салон, электропривод багажника"
        }
    }
}
