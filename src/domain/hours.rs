//! The salon's working schedule (settings `workSchedule`): open and close
//! times for each weekday in Moscow time, or closed. It answers whether a
//! moment is within the hours, which test-drive slots a day has, and how
//! many working minutes lie between two moments (`docs/leads.md`).

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, TimeZone, Timelike, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::clock::moscow;
use crate::error::{AppError, AppResult};

/// Minutes between two test-drive slot starts, and the length of a slot.
pub const SLOT_MINUTES: i64 = 30;

/// One day's hours, "HH:MM" Moscow time, open before close.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DayHours {
    #[schema(example = "09:00")]
    pub open: String,
    #[schema(example = "21:00")]
    pub close: String,
}

/// Seven days, Monday first; `null` is a closed day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkSchedule {
    pub days: Vec<Option<DayHours>>,
}

impl Default for WorkSchedule {
    /// Every day 09:00–21:00.
    fn default() -> Self {
        let day = DayHours {
            open: "09:00".into(),
            close: "21:00".into(),
        };
        WorkSchedule {
            days: vec![Some(day); 7],
        }
    }
}

const DAY_NAMES: [&str; 7] = [
    "Понедельник",
    "Вторник",
    "Среда",
    "Четверг",
    "Пятница",
    "Суббота",
    "Воскресенье",
];

/// The field name of the schedule in the settings.
pub const FIELD: &str = "workSchedule";

/// A strict "HH:MM" (two digits each, 00:00 to 23:59).
pub fn parse_time(text: &str) -> Option<NaiveTime> {
    let bytes = text.as_bytes();
    if bytes.len() != 5 || bytes[2] != b':' {
        return None;
    }
    if !text[..2]
        .bytes()
        .chain(text[3..].bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let hours: u32 = text[..2].parse().ok()?;
    let minutes: u32 = text[3..].parse().ok()?;
    NaiveTime::from_hms_opt(hours, minutes, 0)
}

/// "HH:MM" of a time.
pub fn format_time(time: NaiveTime) -> String {
    format!("{:02}:{:02}", time.hour(), time.minute())
}

/// A strict "YYYY-MM-DD".
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    if text.len() != 10 {
        return None;
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

impl WorkSchedule {
    /// Refuses a schedule that is not seven days of well-formed times with
    /// the opening before the closing.
    pub fn validate(&self) -> AppResult<()> {
        if self.days.len() != 7 {
            return Err(AppError::invalid(
                FIELD,
                "График работы: нужно указать все семь дней недели",
            ));
        }
        for (day, name) in self.days.iter().zip(DAY_NAMES) {
            let Some(day) = day else { continue };
            let (Some(open), Some(close)) = (parse_time(&day.open), parse_time(&day.close)) else {
                return Err(AppError::invalid(
                    FIELD,
                    format!("{name}: время указывается как ЧЧ:ММ, например 09:00"),
                ));
            };
            if open >= close {
                return Err(AppError::invalid(
                    FIELD,
                    format!("{name}: время открытия должно быть раньше времени закрытия"),
                ));
            }
        }
        Ok(())
    }

    /// The week in a line: "Пн 09:00–18:00, …, Вс выходной".
    pub fn describe(&self) -> String {
        const SHORT: [&str; 7] = ["Пн", "Вт", "Ср", "Чт", "Пт", "Сб", "Вс"];
        let days = self.days.iter().zip(SHORT).map(|(day, name)| match day {
            Some(day) => format!("{name} {}–{}", day.open, day.close),
            None => format!("{name} выходной"),
        });
        days.collect::<Vec<_>>().join(", ")
    }

    /// The week as the site shows it (the footer's «Часы работы»), one
    /// line per run of days with the same hours: "Пн–Пт: 09:00–21:00",
    /// "Сб: 10:00–20:00", "Вс: выходной"; "Пн–Вс: …" when every day is alike.
    /// The only text of the hours: none is set apart from the schedule.
    pub fn lines(&self) -> String {
        const SHORT: [&str; 7] = ["Пн", "Вт", "Ср", "Чт", "Пт", "Сб", "Вс"];
        let said = |day: &Option<DayHours>| match day {
            Some(day) => format!("{}–{}", day.open, day.close),
            None => "выходной".to_string(),
        };
        let mut lines = Vec::new();
        let mut start = 0;
        while start < self.days.len().min(7) {
            let hours = said(&self.days[start]);
            let mut end = start;
            while end + 1 < self.days.len().min(7) && said(&self.days[end + 1]) == hours {
                end += 1;
            }
            let days = if end == start {
                SHORT[start].to_string()
            } else {
                format!("{}–{}", SHORT[start], SHORT[end])
            };
            lines.push(format!("{days}: {hours}"));
            start = end + 1;
        }
        lines.join("\n")
    }

    /// The opening and closing time of a date; `None` on a closed day (or a
    /// malformed entry, which validation never lets in).
    pub fn hours_of(&self, date: NaiveDate) -> Option<(NaiveTime, NaiveTime)> {
        let index = date.weekday().num_days_from_monday() as usize;
        let day = self.days.get(index)?.as_ref()?;
        let open = parse_time(&day.open)?;
        let close = parse_time(&day.close)?;
        (open < close).then_some((open, close))
    }

    /// Whether a moment is within the working hours (open inclusive, close
    /// exclusive), in Moscow time.
    pub fn is_open_at<Tz: TimeZone>(&self, moment: &DateTime<Tz>) -> bool {
        let local = moment.with_timezone(&moscow()).naive_local();
        self.hours_of(local.date())
            .is_some_and(|(open, close)| open <= local.time() && local.time() < close)
    }

    /// The test-drive slot starts of a date: every 30 minutes from the
    /// opening, the last one at least 30 minutes before the closing.
    pub fn slots(&self, date: NaiveDate) -> Vec<NaiveTime> {
        let Some((open, close)) = self.hours_of(date) else {
            return Vec::new();
        };
        let minutes = |t: NaiveTime| i64::from(t.num_seconds_from_midnight() / 60);
        let (open, close) = (minutes(open), minutes(close));
        (0..)
            .map(|i| open + i * SLOT_MINUTES)
            .take_while(|start| start + SLOT_MINUTES <= close)
            .filter_map(|start| {
                NaiveTime::from_hms_opt(u32::try_from(start / 60).ok()?, (start % 60) as u32, 0)
            })
            .collect()
    }

    /// Minutes of working hours between two moments (none when `to` is not
    /// after `from`): a lead at 20:55 answered at 09:10 the next working day
    /// counts 15 minutes when the day ends at 21:00 and starts at 09:00.
    pub fn working_minutes_between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> i64 {
        if to <= from {
            return 0;
        }
        let msk = moscow();
        let from_local = from.with_timezone(&msk).naive_local();
        let to_local = to.with_timezone(&msk).naive_local();
        let mut seconds = 0;
        let mut date = from_local.date();
        while date <= to_local.date() {
            if let Some((open, close)) = self.hours_of(date) {
                let start = date.and_time(open).max(from_local);
                let end = date.and_time(close).min(to_local);
                if end > start {
                    seconds += (end - start).num_seconds();
                }
            }
            let Some(next) = date.succ_opt() else { break };
            date = next;
        }
        seconds / 60
    }

    /// The moment `minutes` working minutes after `from` (a missed call's
    /// call-back deadline: the response threshold counted as the response
    /// times count it); none when the schedule opens on no day of the next
    /// two weeks.
    pub fn after_working_minutes(
        &self,
        from: DateTime<Utc>,
        minutes: i64,
    ) -> Option<DateTime<Utc>> {
        let msk = moscow();
        let from_local = from.with_timezone(&msk).naive_local();
        let mut left = minutes.max(0) * 60;
        let mut date = from_local.date();
        for _ in 0..15 {
            if let Some((open, close)) = self.hours_of(date) {
                let start = date.and_time(open).max(from_local);
                let end = date.and_time(close);
                if end > start {
                    let here = (end - start).num_seconds();
                    if left <= here {
                        let at = start + chrono::Duration::seconds(left);
                        return msk
                            .from_local_datetime(&at)
                            .single()
                            .map(|m| m.with_timezone(&Utc));
                    }
                    left -= here;
                }
            }
            date = date.succ_opt()?;
        }
        None
    }

    /// The first and last slot start of a date, as the refusal names them
    /// ("с 09:00 до 20:30").
    pub fn slot_range(&self, date: NaiveDate) -> Option<(NaiveTime, NaiveTime)> {
        let slots = self.slots(date);
        Some((*slots.first()?, *slots.last()?))
    }
}

/// A Moscow date and time as a UTC moment.
pub fn moscow_moment(date: NaiveDate, time: NaiveTime) -> Option<DateTime<Utc>> {
    moscow()
        .from_local_datetime(&date.and_time(time))
        .single()
        .map(|m| m.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .map(|m| m.with_timezone(&Utc))
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_week_is_described_in_a_line() {
        let mut week = WorkSchedule::default();
        week.days[5] = day("10:00", "16:00");
        week.days[6] = None;
        assert_eq!(
            week.describe(),
            "Пн 09:00–21:00, Вт 09:00–21:00, Ср 09:00–21:00, Чт 09:00–21:00, \
             Пт 09:00–21:00, Сб 10:00–16:00, Вс выходной"
        );
    }

    #[test]
    fn the_hours_shown_are_drawn_from_the_schedule() {
        assert_eq!(WorkSchedule::default().lines(), "Пн–Вс: 09:00–21:00");
        assert_eq!(
            week().lines(),
            "Пн–Пт: 09:00–21:00\nСб: 10:00–18:00\nВс: выходной"
        );
        let mut odd = week();
        odd.days[2] = None;
        assert_eq!(
            odd.lines(),
            "Пн–Вт: 09:00–21:00\nСр: выходной\nЧт–Пт: 09:00–21:00\nСб: 10:00–18:00\nВс: выходной"
        );
    }

    fn day(open: &str, close: &str) -> Option<DayHours> {
        Some(DayHours {
            open: open.into(),
            close: close.into(),
        })
    }

    /// Monday to Friday 09:00–21:00, Saturday 10:00–18:00, Sunday closed.
    fn week() -> WorkSchedule {
        let mut days = vec![day("09:00", "21:00"); 5];
        days.push(day("10:00", "18:00"));
        days.push(None);
        WorkSchedule { days }
    }

    #[test]
    fn a_lead_late_in_the_evening_counts_minutes_of_both_days() {
        let s = WorkSchedule::default();
        // 2026-11-23 is a Monday; 20:55 Moscow is 17:55 UTC.
        let minutes = s.working_minutes_between(
            at("2026-11-23T20:55:00+03:00"),
            at("2026-11-24T09:10:00+03:00"),
        );
        assert_eq!(minutes, 15);
    }

    #[test]
    fn closed_days_count_nothing() {
        let s = week();
        // Saturday 17:55 to Monday 09:10: 5 minutes on Saturday, Sunday closed, 10 on Monday.
        let minutes = s.working_minutes_between(
            at("2026-11-28T17:55:00+03:00"),
            at("2026-11-30T09:10:00+03:00"),
        );
        assert_eq!(minutes, 15);
        // Wholly within a closed day, or before opening.
        assert_eq!(
            s.working_minutes_between(
                at("2026-11-29T10:00:00+03:00"),
                at("2026-11-29T15:00:00+03:00")
            ),
            0
        );
        assert_eq!(
            s.working_minutes_between(
                at("2026-11-30T07:00:00+03:00"),
                at("2026-11-30T08:59:00+03:00")
            ),
            0
        );
        // Within one day, and backwards.
        assert_eq!(
            s.working_minutes_between(
                at("2026-11-30T10:00:00+03:00"),
                at("2026-11-30T11:30:00+03:00")
            ),
            90
        );
        assert_eq!(
            s.working_minutes_between(
                at("2026-11-30T11:30:00+03:00"),
                at("2026-11-30T10:00:00+03:00")
            ),
            0
        );
        // A whole week: 5 × 12 h + 8 h.
        assert_eq!(
            s.working_minutes_between(
                at("2026-11-30T00:00:00+03:00"),
                at("2026-12-07T00:00:00+03:00")
            ),
            (5 * 12 + 8) * 60
        );
    }

    #[test]
    fn a_deadline_counts_working_minutes_only() {
        let s = week();
        // Saturday 17:55 plus 15 working minutes: Monday 09:10.
        assert_eq!(
            s.after_working_minutes(at("2026-11-28T17:55:00+03:00"), 15),
            Some(at("2026-11-30T09:10:00+03:00"))
        );
        assert_eq!(
            s.after_working_minutes(at("2026-11-30T10:00:00+03:00"), 90),
            Some(at("2026-11-30T11:30:00+03:00"))
        );
        let closed = WorkSchedule {
            days: vec![None; 7],
        };
        assert_eq!(
            closed.after_working_minutes(at("2026-11-30T10:00:00+03:00"), 5),
            None
        );
    }

    #[test]
    fn moments_within_hours() {
        let s = week();
        assert!(s.is_open_at(&at("2026-11-23T09:00:00+03:00")));
        assert!(s.is_open_at(&at("2026-11-23T20:59:59+03:00")));
        assert!(!s.is_open_at(&at("2026-11-23T21:00:00+03:00")));
        assert!(!s.is_open_at(&at("2026-11-23T08:59:00+03:00")));
        // 06:30 UTC on Sunday is 09:30 Moscow, a closed day.
        assert!(!s.is_open_at(&at("2026-11-29T06:30:00Z")));
        // 06:30 UTC on Monday is 09:30 Moscow.
        assert!(s.is_open_at(&at("2026-11-30T06:30:00Z")));
    }

    #[test]
    fn slots_of_a_day() {
        let s = week();
        let monday = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap_or_default();
        let slots = s.slots(monday);
        assert_eq!(slots.len(), 24);
        assert_eq!(format_time(slots[0]), "09:00");
        assert_eq!(format_time(slots[1]), "09:30");
        assert_eq!(format_time(*slots.last().unwrap_or(&slots[0])), "20:30");
        let saturday = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap_or_default();
        let range = s
            .slot_range(saturday)
            .map(|(a, b)| (format_time(a), format_time(b)));
        assert_eq!(range, Some(("10:00".into(), "17:30".into())));
        let sunday = NaiveDate::from_ymd_opt(2026, 11, 29).unwrap_or_default();
        assert!(s.slots(sunday).is_empty());
        // A day shorter than a slot has none; one ending at 23:59 stops in time.
        let mut short = WorkSchedule::default();
        short.days[0] = day("10:00", "10:20");
        short.days[1] = day("22:00", "23:59");
        assert!(short.slots(monday).is_empty());
        let tuesday = monday.succ_opt().unwrap_or_default();
        assert_eq!(short.slots(tuesday).len(), 3);
    }

    #[test]
    fn schedule_validation() {
        assert!(WorkSchedule::default().validate().is_ok());
        assert!(week().validate().is_ok());
        let message = |s: WorkSchedule| match s.validate() {
            Err(AppError::Invalid { message, field }) => {
                assert_eq!(field, Some(FIELD));
                message
            }
            other => panic!("{other:?}"),
        };
        let mut bad = week();
        bad.days[2] = day("9:00", "21:00");
        assert_eq!(
            message(bad),
            "Среда: время указывается как ЧЧ:ММ, например 09:00"
        );
        let mut bad = week();
        bad.days[0] = day("21:00", "21:00");
        assert_eq!(
            message(bad),
            "Понедельник: время открытия должно быть раньше времени закрытия"
        );
        let mut bad = week();
        bad.days[4] = day("09:00", "24:00");
        assert!(message(bad).starts_with("Пятница"));
        let mut bad = week();
        bad.days.pop();
        assert_eq!(
            message(bad),
            "График работы: нужно указать все семь дней недели"
        );
    }

    #[test]
    fn strict_times_and_dates() {
        assert_eq!(parse_time("09:05").map(format_time), Some("09:05".into()));
        for bad in ["9:05", "09:5", "24:00", "09:60", "0900", "ab:cd", "+9:05"] {
            assert!(parse_time(bad).is_none(), "{bad}");
        }
        assert!(parse_date("2026-11-23").is_some());
        for bad in ["2026-11-31", "2026-1-23", "23.11.2026", ""] {
            assert!(parse_date(bad).is_none(), "{bad}");
        }
    }
}
