//! Reading an admin form's JSON body so that every refusal names the field
//! and says what is wrong in Russian, never in a parser's words
//! (`docs/admin.md`, error messages).
//!
//! Each input type lists its fields ([`Form::FIELDS`]) with the kind of
//! value and the messages. A body is read leniently first: numbers sent as
//! text are numbers, an empty optional value is no value, a list of picture
//! URLs may come as lines. Then a required field that is missing, null or
//! blank gets its own message, and whatever serde still refuses is named by
//! its JSON path and answered with that field's message.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{AppError, AppResult};

/// What kind of value a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// An integer; text of digits (spaces ignored) is read as one.
    Integer,
    /// Rubles: a number or text ("1 150 000,50").
    Money,
    /// true or false; the texts "true" and "false" too.
    Bool,
    /// One code of a list (a status, a body type).
    Code,
    /// A list of texts; one text with one item per line is read as a list,
    /// blank lines dropped.
    Lines,
    /// A list of objects.
    List,
    /// A number or a decimal text, read by the handler.
    Number,
}

/// A field of a form.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The JSON name, as sent.
    pub name: &'static str,
    pub kind: Kind,
    /// The message when a required field is missing, null or blank; `None`
    /// for optional fields.
    pub required: Option<&'static str>,
    /// The message when the value cannot be read; the kind's own otherwise.
    pub invalid: Option<&'static str>,
}

impl Field {
    pub const fn required(name: &'static str, kind: Kind, message: &'static str) -> Field {
        Field {
            name,
            kind,
            required: Some(message),
            invalid: None,
        }
    }

    pub const fn optional(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: None,
            invalid: None,
        }
    }

    /// The message for a value that cannot be read.
    pub const fn invalid(mut self, message: &'static str) -> Field {
        self.invalid = Some(message);
        self
    }

    fn invalid_message(&self) -> &'static str {
        if let Some(message) = self.invalid {
            return message;
        }
        match self.kind {
            Kind::Text => "Значение должно быть текстом",
            Kind::Integer => "Введите целое число",
            Kind::Money | Kind::Number => "Введите число",
            Kind::Bool => "Значение должно быть «да» или «нет»",
            Kind::Code => "Выберите значение из списка",
            Kind::Lines | Kind::List => "Неверный список",
        }
    }

    /// The message for a missing or blank value of this field.
    fn missing_message(&self) -> &'static str {
        self.required.unwrap_or_else(|| self.invalid_message())
    }
}

/// An input type read from an admin form.
pub trait Form {
    /// Every field the form sends, in the form's order.
    const FIELDS: &'static [Field];
}

/// The message of a body that is not a JSON object at all.
pub const UNREADABLE: &str = "Неверные данные";

fn blank(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.trim().is_empty(),
        Some(_) => false,
    }
}

/// Reads the lenient shapes of a field's value.
fn normalise(kind: Kind, value: Value) -> Value {
    match (kind, value) {
        (Kind::Integer, Value::String(text)) => {
            let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            match digits.parse::<i64>() {
                Ok(n) => Value::from(n),
                Err(_) => Value::String(text),
            }
        }
        (Kind::Bool, Value::String(text)) => match text.trim() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(text),
        },
        (Kind::Code, Value::String(text)) => Value::String(text.trim().to_string()),
        (Kind::Lines, Value::String(text)) => Value::Array(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(Value::from)
                .collect(),
        ),
        (_, value) => value,
    }
}

fn field_error(field: &Field, message: &'static str) -> AppError {
    AppError::invalid(field.name, message)
}

/// The name in serde's "missing field `x`" and "unknown field `x`".
fn quoted_name(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len])
}

/// Reads a form's body. Every refusal is a 422 with the field's message and
/// name (a 400 when the body is not a JSON object).
pub fn read<T: DeserializeOwned + Form>(body: Value) -> AppResult<T> {
    let Value::Object(mut map) = body else {
        return Err(AppError::BadRequest(UNREADABLE.into()));
    };
    for field in T::FIELDS {
        let Some(value) = map.remove(field.name) else {
            continue;
        };
        let value = normalise(field.kind, value);
        // An empty optional value is no value: the input's default applies.
        let empty_optional = field.required.is_none()
            && field.kind != Kind::Text
            && blank(Some(&value))
            && !value.is_null();
        if !empty_optional {
            map.insert(field.name.to_string(), value);
        }
    }
    for field in T::FIELDS {
        if let Some(message) = field.required
            && blank(map.get(field.name))
        {
            return Err(field_error(field, message));
        }
    }
    let body = Value::Object(map);
    serde_path_to_error::deserialize(&body).map_err(|error| refusal::<T>(&error, &body))
}

/// The answer to what serde refused, named by the error's JSON path (or the
/// field its message quotes).
fn refusal<T: Form>(
    error: &serde_path_to_error::Error<serde_json::Error>,
    body: &Value,
) -> AppError {
    let named = error.path().iter().find_map(|segment| match segment {
        serde_path_to_error::Segment::Map { key } => Some(key.clone()),
        _ => None,
    });
    let text = error.inner().to_string();
    let name = named.or_else(|| quoted_name(&text).map(str::to_string));
    match name
        .as_deref()
        .and_then(|n| T::FIELDS.iter().find(|f| f.name == n))
    {
        Some(field) if blank(body.get(field.name)) => field_error(field, field.missing_message()),
        Some(field) => field_error(field, field.invalid_message()),
        None if text.starts_with("unknown field") => AppError::Invalid {
            message: format!("Неизвестное поле «{}»", name.unwrap_or_default()),
            field: None,
        },
        None => AppError::Invalid {
            message: UNREADABLE.into(),
            field: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Sample {
        title: String,
        #[serde(default)]
        count: Option<i64>,
        #[serde(default)]
        lines: Vec<String>,
        #[serde(default)]
        shown: bool,
    }

    impl Form for Sample {
        const FIELDS: &'static [Field] = &[
            Field::required("title", Kind::Text, "Название обязательно"),
            Field::optional("count", Kind::Integer).invalid("Количество — целое число"),
            Field::optional("lines", Kind::Lines),
            Field::optional("shown", Kind::Bool),
        ];
    }

    fn refusal(body: Value) -> (String, Option<&'static str>) {
        match read::<Sample>(body) {
            Err(AppError::Invalid { message, field }) => (message, field),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lenient_shapes_are_read() {
        let sample: Sample = read(json!({
            "title": "Т", "count": " 1 200 ", "lines": "a\n\n b \n", "shown": "true"
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sample.title, "Т");
        assert_eq!(sample.count, Some(1200));
        assert_eq!(sample.lines, ["a", "b"]);
        assert!(sample.shown);
        let sample: Sample =
            read(json!({"title": "Т", "count": ""})).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sample.count, None);
    }

    #[test]
    fn refusals_name_the_field() {
        let required = ("Название обязательно".to_string(), Some("title"));
        assert_eq!(refusal(json!({})), required);
        assert_eq!(refusal(json!({"title": null})), required);
        assert_eq!(refusal(json!({"title": "  "})), required);
        assert_eq!(
            refusal(json!({"title": 5})),
            ("Значение должно быть текстом".into(), Some("title"))
        );
        assert_eq!(
            refusal(json!({"title": "Т", "count": "много"})),
            ("Количество — целое число".into(), Some("count"))
        );
        assert_eq!(
            refusal(json!({"title": "Т", "lines": [1]})),
            ("Неверный список".into(), Some("lines"))
        );
        assert_eq!(
            refusal(json!({"title": "Т", "color": "red"})),
            ("Неизвестное поле «color»".into(), None)
        );
        assert!(matches!(
            read::<Sample>(json!([1, 2])),
            Err(AppError::BadRequest(m)) if m == UNREADABLE
        ));
    }
}
