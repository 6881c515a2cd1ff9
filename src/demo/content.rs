//! The demo's texts: the salon's settings, reviews, promotions, partner
//! banks and visitors' requests.

use super::pictures::{Decor, Mark};
use crate::domain::hours::{DayHours, WorkSchedule};
use crate::domain::settings::Settings;

pub const SALON: &str = "Невский Автоцентр";

/// The salon's settings; banner URLs are filled in by the caller.
pub fn settings() -> Settings {
    let mut s = Settings::default();
    let p = &mut s.public;
    p.salon_name = SALON.into();
    p.phone = "+7 (812) 490-75-75".into();
    p.phone_secondary = "+7 (812) 490-75-76".into();
    p.address = "Санкт-Петербург, Пулковское шоссе, 44к2".into();
    p.full_address =
        "196158, Санкт-Петербург, Пулковское шоссе, д. 44, корп. 2, 10 минут от станции метро «Звёздная»"
            .into();
    p.email = "info@nevsky-avto.ru".into();
    p.work_schedule = demo_schedule();
    p.hero_title = "Автомобили в Санкт-Петербурге с выгодой до 300 000 ₽".into();
    p.hero_subtitle =
        "Новые и с пробегом, автокредит в банках-партнёрах, трейд-ин за 30 минут и аренда с выкупом без первого взноса"
            .into();
    p.operator_name = "Общество с ограниченной ответственностью «Невский Автоцентр»".into();
    p.operator_inn = "7810453273".into();
    p.operator_ogrn = "1177847123453".into();
    p.operator_address = "196158, Санкт-Петербург, Пулковское шоссе, д. 44, корп. 2".into();
    p.working_hours = p.work_schedule.lines();
    s.notification_email = "sales@nevsky-avto.ru".into();
    s.from_email = "noreply@nevsky-avto.ru".into();
    s.email_notifications_enabled = true;
    s
}

/// The demo salon's week: weekdays 09:00–21:00, Saturday 10:00–20:00,
/// Sunday 10:00–19:00 (the footer's hours and the test-drive slots alike).
fn demo_schedule() -> WorkSchedule {
    let day = |open: &str, close: &str| {
        Some(DayHours {
            open: open.into(),
            close: close.into(),
        })
    };
    let mut days = vec![day("09:00", "21:00"); 5];
    days.push(day("10:00", "20:00"));
    days.push(day("10:00", "19:00"));
    WorkSchedule { days }
}

pub struct ReviewSpec {
    pub name: &'static str,
    pub rating: i32,
    pub text: &'static str,
    pub approved: bool,
    /// Linked to a car of this brand and model, when set.
    pub car: Option<(&'static str, &'static str)>,
    pub days_ago: i64,
}

const fn review(
    name: &'static str,
    rating: i32,
    text: &'static str,
    approved: bool,
    car: Option<(&'static str, &'static str)>,
    days_ago: i64,
) -> ReviewSpec {
    ReviewSpec {
        name,
        rating,
        text,
        approved,
        car,
        days_ago,
    }
}

#[rustfmt::skip]
pub const REVIEWS: &[ReviewSpec] = &[
    review("Алексей Смирнов", 5, "Брал Haval Jolion в кредит. Одобрили за полчаса, менеджер Артём честно рассказал про все допы и ничего не навязывал. Машину выдали помытой, с полным баком и зимней резиной в подарок.", true, Some(("Haval", "Jolion")), 3),
    review("Ольга Васильева", 5, "Сдала свою старую Kia Rio в трейд-ин и в тот же день уехала на Chery Tiggo 7 Pro Max. Оценка оказалась выше, чем предлагали в других салонах на Выборгском шоссе.", true, Some(("Chery", "Tiggo 7 Pro Max")), 9),
    review("Дмитрий Кузнецов", 4, "Покупал Toyota Camry с пробегом. Машину проверили при мне на подъёмнике, показали отчёт по истории. Минус звезда — пришлось подождать оформление около двух часов.", true, Some(("Toyota", "Camry")), 14),
    review("Марина Соколова", 5, "Приятный салон, кофе и детский уголок. Помогли подобрать машину под бюджет 2,5 млн, в итоге взяли Omoda C5 — очень довольна.", true, Some(("Omoda", "C5")), 21),
    review("Игорь Петров", 5, "Работаю в такси, взял Lada Vesta в аренду с выкупом. Без первого взноса, платёж посуточно — для меня самый удобный вариант.", true, Some(("Lada", "Vesta")), 27),
    review("Наталья Орлова", 4, "Хороший выбор автомобилей с пробегом, цены адекватные. Тест-драйв организовали в выходной день без проблем.", true, None, 35),
    review("Сергей Волков", 5, "Купил Tank 300 под заказ, привезли раньше обещанного срока. Отдельное спасибо за помощь с оформлением КАСКО.", true, Some(("Tank", "300")), 48),
    review("Екатерина Лебедева", 3, "Машина отличная, но по телефону сказали, что она в наличии, а на месте оказалось, что её ещё готовят к продаже. Подождала день.", true, Some(("Geely", "Coolray")), 56),
    review("Андрей Николаев", 5, "Второй раз покупаю здесь автомобиль. Всё быстро и прозрачно, цена в договоре совпала с ценой на сайте.", false, Some(("Geely", "Monjaro")), 1),
    review("Татьяна Фёдорова", 4, "Оформили автокредит с небольшой ставкой через Сбербанк, помогли с документами. Рекомендую.", false, None, 2),
    review("Павел Морозов", 5, "Взял BMW X5 с пробегом 60 тысяч, состояние как у нового. Продавец показал все сервисные документы.", false, Some(("BMW", "X5")), 4),
    review("Юлия Павлова", 3, "Долго ждала обратного звонка по заявке на подбор, зато потом предложили хороший вариант.", false, None, 6),
];

/// A promotion; its last day is relative to the Moscow date the demo is
/// built on, so the demo stays current and a fresh one shows a promotion
/// ending tomorrow (`docs/self-checks.md`).
pub struct PromotionSpec {
    pub title: &'static str,
    pub description: &'static str,
    pub discount: &'static str,
    /// Last day, days from today (negative: in the past).
    pub ends_in_days: i64,
    pub active: bool,
    pub decor: Decor,
}

pub const PROMOTIONS: &[PromotionSpec] = &[
    PromotionSpec {
        title: "Выгода в трейд-ин",
        description: "Сдайте свой автомобиль в зачёт нового и получите дополнительную выгоду. Оценка за 30 минут, переоформление — в день обращения.",
        discount: "до 300 000 ₽",
        ends_in_days: 37,
        active: true,
        decor: Decor::Arrows,
    },
    PromotionSpec {
        // 38-FZ art. 28: the bank named, the ПСК before the rate and never
        // in smaller type (the badge shows the ПСК, not the rate).
        title: "Автокредит со Сбербанком",
        description: "Программа Сбербанка «Семейный автомобиль с господдержкой» для новых автомобилей российской сборки: ПСК от 5,213% годовых, ставка от 4,9% годовых, первый взнос — от 20%. Все условия — на странице «Автокредит».",
        discount: "ПСК от 5,213%",
        ends_in_days: 68,
        active: true,
        decor: Decor::Percent,
    },
    PromotionSpec {
        title: "Зимние шины в подарок",
        description: "Комплект зимних шин и шиномонтаж в подарок при покупке нового кроссовера или внедорожника.",
        discount: "Подарок",
        ends_in_days: 96,
        active: true,
        decor: Decor::Snowflake,
    },
    PromotionSpec {
        title: "Скидка на автомобили с пробегом",
        description: "Скидка на проверенные автомобили с пробегом старше 2020 года при оформлении до конца месяца.",
        discount: "-10%",
        ends_in_days: 21,
        active: true,
        decor: Decor::Coins,
    },
    PromotionSpec {
        title: "КАСКО за 1 ₽",
        description: "Полис КАСКО на первый год за 1 рубль при покупке автомобиля в кредит у банков-партнёров.",
        discount: "1 ₽",
        ends_in_days: 127,
        active: true,
        decor: Decor::Shield,
    },
    // Ends tomorrow: a fresh demo's self-checks list it as ending.
    PromotionSpec {
        title: "Распродажа автомобилей 2025 года",
        description: "Последние новые автомобили 2025 года выпуска из наличия — с дополнительной скидкой. Количество автомобилей ограничено.",
        discount: "до 200 000 ₽",
        ends_in_days: 1,
        active: true,
        decor: Decor::Coins,
    },
    PromotionSpec {
        title: "Летний сервис в подарок",
        description: "Бесплатное ТО и кондиционирование салона при покупке автомобиля летом.",
        discount: "-50%",
        ends_in_days: -85,
        active: false,
        decor: Decor::Gift,
    },
    PromotionSpec {
        title: "Чёрная пятница",
        description: "Специальные цены на автомобили из наличия в течение трёх дней.",
        discount: "-15%",
        ends_in_days: -358,
        active: false,
        decor: Decor::Percent,
    },
];

pub struct BankSpec {
    pub name: &'static str,
    pub color: u32,
    pub ink: u32,
    pub mark: Mark,
    pub requirements: &'static str,
    pub advantages: &'static str,
    pub active: bool,
    /// The offer's ad token (docs/advertising.md): made up, as the demo's
    /// every other figure.
    pub erid: &'static str,
}

/// The marks of the demo's promotions of a partner bank's product (a
/// bank's credit is its ad, 38-FZ art. 18.1; docs/advertising.md): bank,
/// advertiser, token (made up).
pub const BANK_PROMOTION_MARKS: &[(&str, &str, &str)] =
    &[("Сбербанк", "ПАО Сбербанк", "2VtzqvWgr8P")];

pub const BANKS: &[BankSpec] = &[
    BankSpec {
        name: "Сбербанк",
        color: 0x21a038,
        ink: 0xffffff,
        mark: Mark::Check,
        requirements: "Возраст от 21 до 65 лет, паспорт РФ и водительское удостоверение, постоянная регистрация, стаж на текущем месте работы от 3 месяцев.",
        advantages: "Госпрограммы льготного автокредита, Первый взнос от 0%, Решение за 30 минут, Срок до 8 лет",
        active: true,
        erid: "2VtzqvWgr8K",
    },
    BankSpec {
        name: "ВТБ",
        color: 0x0a2896,
        ink: 0xffffff,
        mark: Mark::Bars,
        requirements: "Возраст от 21 до 70 лет на момент погашения, паспорт РФ, водительское удостоверение, справка о доходах по форме банка или 2-НДФЛ.",
        advantages: "Без КАСКО, Досрочное погашение без комиссий, Одобрение онлайн",
        active: true,
        erid: "2VtzquKcE9A",
    },
    BankSpec {
        name: "Альфа-Банк",
        color: 0xef3124,
        ink: 0xffffff,
        mark: Mark::Letter,
        requirements: "Возраст от 21 года, гражданство РФ, паспорт и второй документ на выбор, стаж на последнем месте работы от 3 месяцев.",
        advantages: "Решение за 15 минут, Кредит на автомобили с пробегом, Первый взнос от 10%, Срок до 7 лет",
        active: true,
        erid: "2VtzqwdWzZL",
    },
    BankSpec {
        name: "Т-Банк",
        color: 0xffdd2d,
        ink: 0x333333,
        mark: Mark::Shield,
        requirements: "Возраст от 18 до 70 лет, паспорт РФ, водительское удостоверение; подтверждение дохода не требуется при взносе от 20%.",
        advantages: "Оформление онлайн, Без справок о доходе, Страховка по желанию",
        active: true,
        erid: "2VtzqxQ4Lfe",
    },
    BankSpec {
        name: "Газпромбанк",
        color: 0x0a3d91,
        ink: 0xffffff,
        mark: Mark::Flame,
        requirements: "Возраст от 20 до 70 лет, паспорт РФ, постоянная регистрация в регионе присутствия банка, стаж от 6 месяцев.",
        advantages: "Первый взнос от 15%, Срок до 7 лет, Кредит на новые и подержанные автомобили",
        active: true,
        erid: "2VtzqyRm3Ph",
    },
    BankSpec {
        name: "Совкомбанк",
        color: 0x004e9e,
        ink: 0xea2a2f,
        mark: Mark::Quarters,
        requirements: "Возраст от 20 до 85 лет, паспорт РФ, стаж на последнем месте работы от 4 месяцев.",
        advantages: "Рассрочка от дилера, Без первого взноса, Одобрение за 1 час",
        active: false,
        erid: "2VtzqzHs7Tn",
    },
];

/// A credit programme of a demo bank (`docs/credit.md`). Dates are days
/// relative to the Moscow date the demo is built on.
pub struct CreditSpec {
    pub bank: &'static str,
    pub name: &'static str,
    /// Rate and ПСК ranges, percent a year.
    pub rate: (f64, f64),
    pub psk: (f64, f64),
    pub months: (i64, i64),
    pub down_payment_percent: i64,
    /// First valid day, days from today (negative: in the past).
    pub from_days: i64,
    /// Last valid day, days from today; None: open-ended.
    pub to_days: Option<i64>,
    pub conditions: &'static str,
}

#[rustfmt::skip]
pub const CREDIT_PROGRAMS: &[CreditSpec] = &[
    CreditSpec {
        bank: "Сбербанк", name: "Семейный автомобиль с господдержкой",
        rate: (4.9, 9.9), psk: (5.213, 14.782), months: (12, 60), down_payment_percent: 20,
        from_days: -45, to_days: Some(120),
        conditions: "Для семей с детьми до 18 лет и автомобилей российской сборки дешевле 5 млн ₽. Ставка 4,9% при страховании жизни и здоровья заёмщика (от 1,2% суммы кредита в год); без страхования — 9,9%. Автомобиль в залоге у банка.",
    },
    CreditSpec {
        bank: "ВТБ", name: "Автокредит на новый автомобиль",
        rate: (11.9, 19.9), psk: (12.415, 24.627), months: (12, 84), down_payment_percent: 10,
        from_days: -90, to_days: None,
        conditions: "Ставка 11,9% при страховании жизни и КАСКО; без КАСКО — на 3 п. п. выше, без страхования жизни — ещё на 5 п. п. Подтверждение дохода по форме банка или 2-НДФЛ. Автомобиль в залоге у банка.",
    },
    CreditSpec {
        bank: "Альфа-Банк", name: "Автомобиль с пробегом",
        rate: (14.9, 19.9), psk: (15.327, 23.918), months: (12, 60), down_payment_percent: 10,
        from_days: -30, to_days: Some(150),
        conditions: "Автомобиль не старше 10 лет на момент окончания кредита. Ставка 14,9% при страховании жизни; без него — 19,9%. Автомобиль в залоге у банка.",
    },
    CreditSpec {
        bank: "Т-Банк", name: "Автокредит онлайн",
        rate: (9.9, 19.9), psk: (10.284, 26.815), months: (12, 84), down_payment_percent: 0,
        from_days: -60, to_days: None,
        conditions: "Без справок о доходе при первом взносе от 20%; с меньшим взносом — ставка выше на 4 п. п. Страхование по желанию: без КАСКО ставка выше на 2 п. п.",
    },
    CreditSpec {
        bank: "Газпромбанк", name: "Автокредит с КАСКО",
        rate: (6.9, 15.9), psk: (7.402, 21.136), months: (12, 84), down_payment_percent: 15,
        from_days: -20, to_days: Some(100),
        conditions: "Ставка 6,9% при КАСКО и страховании жизни в компаниях, аккредитованных банком; без страхования жизни — 15,9%. Досрочное погашение без комиссий.",
    },
    // Ended yesterday: hidden from the site, listed as expired in the admin.
    CreditSpec {
        bank: "Газпромбанк", name: "Осеннее предложение",
        rate: (5.5, 12.5), psk: (5.912, 17.344), months: (12, 60), down_payment_percent: 30,
        from_days: -75, to_days: Some(-1),
        conditions: "Для новых автомобилей из наличия салона при КАСКО и страховании жизни.",
    },
    // Of a hidden bank: hidden too.
    CreditSpec {
        bank: "Совкомбанк", name: "Автокредит без первого взноса",
        rate: (12.9, 19.9), psk: (13.544, 25.102), months: (12, 72), down_payment_percent: 0,
        from_days: -10, to_days: None,
        conditions: "При страховании жизни; без него ставка выше на 6 п. п.",
    },
];

pub struct LeadSpec {
    pub kind: &'static str,
    pub status: &'static str,
    pub name: &'static str,
    pub phone: &'static str,
    pub email: Option<&'static str>,
    pub message: Option<&'static str>,
    /// Hours since the request came in.
    pub hours_ago: i64,
}

const fn lead(
    kind: &'static str,
    status: &'static str,
    name: &'static str,
    phone: &'static str,
    email: Option<&'static str>,
    message: Option<&'static str>,
    hours_ago: i64,
) -> LeadSpec {
    LeadSpec {
        kind,
        status,
        name,
        phone,
        email,
        message,
        hours_ago,
    }
}

#[rustfmt::skip]
pub const LEADS: &[LeadSpec] = &[
    lead("auto_credit", "new", "Кирилл Андреев", "+7 (921) 345-12-87", Some("k.andreev@mail.ru"), Some("Интересует кредит без первого взноса"), 1),
    lead("auto_credit", "in_progress", "Анна Белова", "8 (911) 204-55-31", None, None, 20),
    lead("auto_credit", "completed", "Роман Гусев", "+7 (905) 777-40-12", None, Some("Одобрено в Сбербанке, выдача в субботу"), 75),
    lead("auto_credit", "cancelled", "Виктор Зайцев", "+7 (952) 118-93-06", None, Some("Передумал, купил у частника"), 160),
    lead("trade_in", "new", "Елена Крылова", "+7 (931) 552-67-19", None, None, 3),
    lead("trade_in", "in_progress", "Максим Романов", "+7 (960) 281-44-70", Some("romanov.m@yandex.ru"), Some("Могу подъехать на оценку в четверг"), 30),
    lead("trade_in", "completed", "Олег Медведев", "+7 (981) 903-22-58", None, None, 210),
    lead("auto_selection", "new", "Светлана Егорова", "+7 (999) 640-18-25", None, Some("Нужен семейный кроссовер, обязательно автомат"), 27),
    lead("auto_selection", "in_progress", "Григорий Тимофеев", "+7 (904) 333-71-09", None, None, 52),
    lead("auto_selection", "cancelled", "Людмила Ковалёва", "+7 (921) 880-12-34", None, None, 300),
    lead("lease_booking", "new", "Руслан Алиев", "+7 (967) 455-90-21", None, Some("Работаю в такси, нужен автомобиль с понедельника"), 2),
    lead("lease_booking", "in_progress", "Денис Шестаков", "+7 (911) 777-03-65", None, None, 44),
    lead("lease_booking", "completed", "Артур Гайдамак", "+7 (950) 021-58-47", None, None, 130),
    lead("contact_form", "new", "Ирина Семенова", "+7 (921) 612-09-88", Some("semenova.i@gmail.com"), Some("Интересует рассрочка на 12 месяцев"), 0),
    lead("contact_form", "in_progress", "Владимир Поляков", "+7 (812) 409-66-20", None, None, 28),
    lead("contact_form", "completed", "Ксения Миронова", "+7 (965) 098-71-13", None, None, 96),
    lead("test_drive", "new", "Павел Соколов", "+7 (921) 440-27-63", Some("p.sokolov@yandex.ru"), Some("Хочу сравнить с текущим автомобилем на трассе"), 4),
    lead("test_drive", "in_progress", "Марина Орлова", "+7 (911) 318-52-90", None, None, 26),
    lead("callback", "new", "Олег Данилов", "+7 (921) 604-18-37", None, None, 3),
    lead("callback", "completed", "Вера Кузнецова", "+7 (911) 250-73-64", None, None, 70),
    lead("contact_form", "in_progress", "Алексей Никитин", "+7 (921) 730-44-15", None, Some("Перезвоните после обеда"), 1),
    lead("auto_credit", "in_progress", "Татьяна Волкова", "+7 (911) 902-37-48", None, None, 2),
    lead("trade_in", "completed", "Сергей Лебедев", "+7 (963) 215-80-02", None, None, 50),
    lead("auto_selection", "in_progress", "Юлия Фёдорова", "+7 (904) 517-62-39", None, None, 170),
];
