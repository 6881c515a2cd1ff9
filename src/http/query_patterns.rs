//! Query values checked against the `pattern` their parameter declares in
//! the OpenAPI document (`docs/api.md`, "Requests"). The document is the one
//! rule: a status, a sort, a price, a channel, a kind of file or a list of
//! slugs is accepted exactly when it matches its parameter's pattern, and
//! refused with 400 naming the parameter otherwise, before any handler
//! reads it. Handlers then parse only values their pattern admits.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::http::Uri;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use regex::Regex;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{OpenApi, RefOr};

use crate::error::AppError;

/// Longest value quoted back in an error.
const QUOTED_VALUE_CHARS: usize = 40;

/// The patterned query parameters of each operation, by method and route
/// path (`GET /api/cars/fast`).
#[derive(Debug, Default)]
pub struct QueryPatterns {
    by_route: HashMap<(String, String), Vec<(String, Regex)>>,
}

impl QueryPatterns {
    /// Every query parameter of `doc` whose schema has a `pattern`.
    pub fn of(doc: &OpenApi) -> QueryPatterns {
        let mut by_route = HashMap::new();
        for (path, item) in &doc.paths.paths {
            let operations: [(&str, &Option<Operation>); 4] = [
                ("GET", &item.get),
                ("POST", &item.post),
                ("PUT", &item.put),
                ("DELETE", &item.delete),
            ];
            for (method, operation) in operations {
                let Some(operation) = operation else { continue };
                let patterns: Vec<(String, Regex)> = operation
                    .parameters
                    .iter()
                    .flatten()
                    .filter(|p| p.parameter_in == ParameterIn::Query)
                    .filter_map(|p| Some((p.name.clone(), pattern(p.schema.as_ref()?)?)))
                    .map(|(name, pattern)| {
                        let regex = Regex::new(&pattern).unwrap_or_else(|e| {
                            panic!("the pattern of query parameter {name} ({pattern}): {e}")
                        });
                        (name, regex)
                    })
                    .collect();
                if !patterns.is_empty() {
                    by_route.insert((method.to_string(), path.clone()), patterns);
                }
            }
        }
        QueryPatterns { by_route }
    }

    /// The query of a request to `method route`, or the refusal of its first
    /// value outside its pattern. A value whose pattern matches it only
    /// without one final line feed is given without it: a pattern's `$`
    /// matches before a final line feed in the regular expressions of many
    /// tools (Python's among them), so a client built from the document may
    /// send it.
    fn check(&self, method: &str, route: &str, query: &str) -> Result<Option<String>, AppError> {
        let Some(patterns) = self.by_route.get(&(method.to_string(), route.to_string())) else {
            return Ok(None);
        };
        let mut trimmed = false;
        let mut pairs = Vec::new();
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            let mut value = value.into_owned();
            if let Some((_, regex)) = patterns.iter().find(|(n, _)| *n == name)
                && !regex.is_match(&value)
            {
                match value.strip_suffix('\n') {
                    Some(kept) if regex.is_match(kept) => {
                        value = kept.to_string();
                        trimmed = true;
                    }
                    _ => return Err(refusal(&name, &value)),
                }
            }
            pairs.push((name.into_owned(), value));
        }
        Ok(trimmed.then(|| {
            form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs)
                .finish()
        }))
    }
}

/// The `pattern` of a parameter's schema, when it declares one.
fn pattern(schema: &RefOr<Schema>) -> Option<String> {
    match schema {
        RefOr::T(Schema::Object(object)) => object.pattern.clone(),
        _ => None,
    }
}

fn refusal(name: &str, value: &str) -> AppError {
    let mut quoted: String = value.chars().take(QUOTED_VALUE_CHARS).collect();
    if quoted.len() < value.len() {
        quoted.push('…');
    }
    AppError::BadRequest(format!(
        "Неверный параметр запроса «{name}»: «{quoted}» — такое значение не принимается"
    ))
}

/// The middleware: a query value outside its pattern is 400.
pub async fn check_query(
    State(patterns): State<Arc<QueryPatterns>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(query) = request.uri().query() {
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .map_or("", MatchedPath::as_str);
        match patterns.check(request.method().as_str(), route, query) {
            Err(refused) => return refused.into_response(),
            Ok(Some(kept)) => {
                let path = request.uri().path();
                if let Ok(uri) = format!("{path}?{kept}").parse::<Uri>() {
                    *request.uri_mut() = uri;
                }
            }
            Ok(None) => {}
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns() -> QueryPatterns {
        let mut by_route = HashMap::new();
        by_route.insert(
            ("GET".to_string(), "/api/cars/fast".to_string()),
            vec![(
                "status".to_string(),
                Regex::new("^(|all|(new|used|lease)(,(new|used|lease))*)$").unwrap(),
            )],
        );
        QueryPatterns { by_route }
    }

    #[test]
    fn a_value_outside_its_pattern_is_refused_naming_it() {
        let p = patterns();
        assert!(matches!(
            p.check("GET", "/api/cars/fast", "status=new,used&limit=3"),
            Ok(None)
        ));
        let Err(AppError::BadRequest(message)) = p.check("GET", "/api/cars/fast", "status=nev")
        else {
            panic!("refused")
        };
        assert!(message.contains("«status»: «nev»"), "{message}");
        assert!(p.check("GET", "/api/cars/fast", "status=new%20").is_err());
        // Another route's or method's parameter of that name is its own.
        assert!(matches!(
            p.check("POST", "/api/cars/fast", "status=x"),
            Ok(None)
        ));
        assert!(matches!(p.check("GET", "/api/leads", "status=x"), Ok(None)));
    }

    #[test]
    fn one_final_line_feed_is_read_as_the_patterns_of_python_read_it() {
        let p = patterns();
        let Ok(Some(kept)) = p.check("GET", "/api/cars/fast", "status=used%0A&limit=3") else {
            panic!("kept without the line feed")
        };
        assert_eq!(kept, "status=used&limit=3");
        assert!(
            p.check("GET", "/api/cars/fast", "status=used%0A%0A")
                .is_err()
        );
    }
}
