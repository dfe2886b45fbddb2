//! The `--remote URL`: which store, where in it, and nothing secret.
//!
//! - a path, or `file:///abs/path`: a directory (on shared storage, typically);
//! - `redis://host:port/db` or `rediss://...` (TLS); `?prefix=NAME` namespaces the keys;
//! - `s3://bucket/prefix`, with `?endpoint=URL&region=NAME` or the AWS SDK variables
//!   `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL` and `AWS_REGION` / `AWS_DEFAULT_REGION`;
//!   `?virtual_host_style=true` for stores that need bucket host names (Huawei OBS takes both).
//!
//! Credentials come from the environment only (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//! `AWS_SESSION_TOKEN`; `REDIS_USERNAME`, `REDIS_PASSWORD`). A URL with `user:password@` or a
//! secret-looking query key is refused: a command line is visible to every user of the node
//! (`/proc/*/cmdline`) and lands in shell histories and job logs.

use std::path::PathBuf;

use crate::error::RemoteError;

/// Where the remote tier lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreSpec {
    /// A directory (absolute).
    Fs { root: PathBuf },
    /// A Redis server; `endpoint` is `redis://host:port` or `rediss://host:port`.
    Redis {
        endpoint: String,
        db: i64,
        prefix: String,
    },
    /// An S3-compatible bucket.
    S3 {
        bucket: String,
        prefix: String,
        endpoint: Option<String>,
        region: Option<String>,
        virtual_host_style: bool,
    },
}

/// Environment lookups, injectable for tests.
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }
}

/// Query keys that would put a secret on the command line, with the variable to use instead.
const SECRET_KEYS: &[(&str, &str)] = &[
    ("access_key_id", "AWS_ACCESS_KEY_ID"),
    ("access_key", "AWS_ACCESS_KEY_ID"),
    ("secret_access_key", "AWS_SECRET_ACCESS_KEY"),
    ("secret_key", "AWS_SECRET_ACCESS_KEY"),
    ("secret", "AWS_SECRET_ACCESS_KEY"),
    ("session_token", "AWS_SESSION_TOKEN"),
    ("token", "AWS_SESSION_TOKEN"),
    ("password", "REDIS_PASSWORD"),
    ("username", "REDIS_USERNAME"),
    ("user", "REDIS_USERNAME"),
];

const S3_KEYS: &[&str] = &["endpoint", "region", "virtual_host_style"];
const REDIS_KEYS: &[&str] = &["prefix"];

/// Parses `--remote`. `env` supplies the S3 endpoint and region when the URL has none.
pub fn parse(text: &str, env: &dyn Env) -> Result<StoreSpec, RemoteError> {
    let bad = |why: String| RemoteError::BadUrl {
        url: redact(text),
        why,
    };
    let Some((scheme, _)) = text.split_once("://") else {
        // A plain path.
        if text.is_empty() {
            return Err(bad("empty".into()));
        }
        let p = PathBuf::from(text);
        let root = if p.is_absolute() {
            p
        } else {
            std::env::current_dir()
                .map_err(|e| bad(format!("current directory: {e}")))?
                .join(p)
        };
        return Ok(StoreSpec::Fs { root });
    };
    let u = url::Url::parse(text).map_err(|e| bad(e.to_string()))?;
    if !u.username().is_empty() || u.password().is_some() {
        let var = match scheme {
            "s3" => "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY",
            _ => "REDIS_USERNAME / REDIS_PASSWORD",
        };
        return Err(RemoteError::CredentialsInUrl {
            url: redact(text),
            what: "user:password@".into(),
            var: var.into(),
        });
    }
    let mut query = Vec::new();
    for (k, v) in u.query_pairs() {
        if let Some((_, var)) = SECRET_KEYS.iter().find(|(s, _)| k.eq_ignore_ascii_case(s)) {
            return Err(RemoteError::CredentialsInUrl {
                url: redact(text),
                what: format!("?{k}="),
                var: (*var).into(),
            });
        }
        query.push((k.into_owned(), v.into_owned()));
    }
    let allow = |keys: &[&str]| -> Result<(), RemoteError> {
        match query.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            Some((k, _)) => Err(bad(format!(
                "unknown query key `{k}`; {scheme}:// takes {}",
                if keys.is_empty() {
                    "none".to_owned()
                } else {
                    keys.join(", ")
                }
            ))),
            None => Ok(()),
        }
    };
    let q = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    match scheme {
        "file" => {
            allow(&[])?;
            match u.host_str() {
                None | Some("") | Some("localhost") => {}
                Some(h) => return Err(bad(format!("file:// names host `{h}`; only local paths"))),
            }
            let root = u
                .to_file_path()
                .map_err(|()| bad("not an absolute file path".into()))?;
            Ok(StoreSpec::Fs { root })
        }
        "redis" | "rediss" => {
            allow(REDIS_KEYS)?;
            let host = u
                .host_str()
                .filter(|h| !h.is_empty())
                .ok_or_else(|| bad("no host".into()))?;
            let port = u.port().unwrap_or(6379);
            let db = match u.path().trim_matches('/') {
                "" => 0,
                d => d
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (0..=65535).contains(n))
                    .ok_or_else(|| bad(format!("database `{d}` is not a number")))?,
            };
            let host = if host.contains(':') && !host.starts_with('[') {
                format!("[{host}]")
            } else {
                host.to_owned()
            };
            Ok(StoreSpec::Redis {
                endpoint: format!("{scheme}://{host}:{port}"),
                db,
                prefix: prefix_of(q("prefix").as_deref().unwrap_or("cann-cache")),
            })
        }
        "s3" => {
            allow(S3_KEYS)?;
            let bucket = u
                .host_str()
                .filter(|h| !h.is_empty())
                .ok_or_else(|| bad("no bucket: expected s3://bucket/prefix".into()))?
                .to_owned();
            let endpoint = q("endpoint")
                .or_else(|| env.var("AWS_ENDPOINT_URL_S3"))
                .or_else(|| env.var("AWS_ENDPOINT_URL"));
            if let Some(e) = &endpoint {
                let eu = url::Url::parse(e).map_err(|x| bad(format!("endpoint `{e}`: {x}")))?;
                if !eu.username().is_empty() || eu.password().is_some() {
                    return Err(RemoteError::CredentialsInUrl {
                        url: redact(text),
                        what: "endpoint=…user:password@".into(),
                        var: "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY".into(),
                    });
                }
                if !matches!(eu.scheme(), "http" | "https") {
                    return Err(bad(format!("endpoint `{e}` is not http:// or https://")));
                }
            }
            let virtual_host_style = match q("virtual_host_style").as_deref() {
                None | Some("false") | Some("0") => false,
                Some("true") | Some("1") => true,
                Some(v) => {
                    return Err(bad(format!(
                        "virtual_host_style is `{v}`, expected true or false"
                    )))
                }
            };
            Ok(StoreSpec::S3 {
                bucket,
                prefix: prefix_of(u.path()),
                endpoint,
                region: q("region")
                    .or_else(|| env.var("AWS_REGION"))
                    .or_else(|| env.var("AWS_DEFAULT_REGION")),
                virtual_host_style,
            })
        }
        other => Err(RemoteError::BadScheme {
            url: redact(text),
            scheme: other.to_owned(),
        }),
    }
}

/// `a/b` → `/a/b/` (OpenDAL roots), empty → `/`.
fn prefix_of(p: &str) -> String {
    let t = p.trim_matches('/');
    if t.is_empty() {
        "/".into()
    } else {
        format!("/{t}/")
    }
}

/// The URL as it may be shown: userinfo and every query value replaced, so an error message
/// never repeats a secret.
pub fn redact(text: &str) -> String {
    let Ok(mut u) = url::Url::parse(text) else {
        return text.split('?').next().unwrap_or("").to_owned();
    };
    if !u.username().is_empty() {
        let _ = u.set_username("***");
    }
    if u.password().is_some() {
        let _ = u.set_password(Some("***"));
    }
    if u.query().is_some() {
        let keys: Vec<String> = u.query_pairs().map(|(k, _)| k.into_owned()).collect();
        u.query_pairs_mut().clear();
        for k in keys {
            u.query_pairs_mut().append_pair(&k, "***");
        }
    }
    u.to_string()
}

impl StoreSpec {
    /// A short label of the store for messages (never a secret: those are not in the spec).
    pub fn label(&self) -> String {
        match self {
            StoreSpec::Fs { root } => root.display().to_string(),
            StoreSpec::Redis {
                endpoint,
                db,
                prefix,
            } => format!("{endpoint}/{db} (keys {})", prefix.trim_start_matches('/')),
            StoreSpec::S3 {
                bucket,
                prefix,
                endpoint,
                ..
            } => format!(
                "s3://{bucket}{prefix}{}",
                endpoint
                    .as_deref()
                    .map(|e| format!(" at {e}"))
                    .unwrap_or_default()
            ),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    struct NoEnv;
    impl Env for NoEnv {
        fn var(&self, _: &str) -> Option<String> {
            None
        }
    }
    struct AwsEnv;
    impl Env for AwsEnv {
        fn var(&self, n: &str) -> Option<String> {
            match n {
                "AWS_ENDPOINT_URL" => Some("http://127.0.0.1:9000".into()),
                "AWS_REGION" => Some("cn-north-4".into()),
                _ => None,
            }
        }
    }

    #[test]
    fn stores() {
        assert_eq!(
            parse("/srv/cache", &NoEnv).unwrap(),
            StoreSpec::Fs {
                root: "/srv/cache".into()
            }
        );
        assert_eq!(
            parse("file:///srv/cache", &NoEnv).unwrap(),
            StoreSpec::Fs {
                root: "/srv/cache".into()
            }
        );
        assert_eq!(
            parse("redis://127.0.0.1:6390/2", &NoEnv).unwrap(),
            StoreSpec::Redis {
                endpoint: "redis://127.0.0.1:6390".into(),
                db: 2,
                prefix: "/cann-cache/".into()
            }
        );
        assert_eq!(
            parse("s3://bkt/team/cache", &AwsEnv).unwrap(),
            StoreSpec::S3 {
                bucket: "bkt".into(),
                prefix: "/team/cache/".into(),
                endpoint: Some("http://127.0.0.1:9000".into()),
                region: Some("cn-north-4".into()),
                virtual_host_style: false,
            }
        );
        let s = parse(
            "s3://bkt?endpoint=https://obs.example:443&region=r1",
            &AwsEnv,
        )
        .unwrap();
        assert!(
            matches!(s, StoreSpec::S3 { endpoint: Some(e), region: Some(r), .. } if e == "https://obs.example:443" && r == "r1")
        );
    }

    #[test]
    fn secrets_on_the_command_line_are_refused_and_not_repeated() {
        for (url, var) in [
            ("redis://:hunter2@127.0.0.1:6379/0", "REDIS_PASSWORD"),
            ("redis://admin:hunter2@127.0.0.1/0", "REDIS_PASSWORD"),
            ("s3://AKIA:hunter2@bkt/p", "AWS_SECRET_ACCESS_KEY"),
            (
                "s3://bkt/p?secret_access_key=hunter2",
                "AWS_SECRET_ACCESS_KEY",
            ),
            ("redis://h/0?password=hunter2", "REDIS_PASSWORD"),
            (
                "s3://bkt/p?endpoint=http://a:hunter2@h",
                "AWS_SECRET_ACCESS_KEY",
            ),
        ] {
            let e = parse(url, &NoEnv).unwrap_err();
            let text = e.to_string();
            assert!(
                matches!(e, RemoteError::CredentialsInUrl { .. }),
                "{url}: {text}"
            );
            assert!(text.contains(var), "{url}: {text}");
            assert!(!text.contains("hunter2"), "{url}: {text}");
        }
    }

    #[test]
    fn bad_urls_say_why() {
        for (url, why) in [
            ("ftp://h/x", "unknown scheme"),
            ("s3:///p", "no bucket"),
            ("redis://h/x", "not a number"),
            ("redis://h/0?ttl=5", "unknown query key `ttl`"),
            ("file://server/x", "only local paths"),
            ("s3://b?endpoint=ftp://h", "not http"),
        ] {
            let text = parse(url, &NoEnv).unwrap_err().to_string();
            assert!(text.contains(why), "{url}: {text}");
        }
    }
}
