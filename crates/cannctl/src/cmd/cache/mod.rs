//! `cannctl cache info|gc|verify|clear [DIR] [--format human|json]`.
//!
//! DIR is what a user gives as `op_compiler_cache_dir` (the folder holding `op_cache.ini`
//! and `kernel_cache/`); without it the directory is resolved as the compiler would
//! (`${ASCEND_CACHE_PATH}`, then `$HOME/atc_data`). All rules live in
//! `cann_runtime::cache`; these modules only parse, render and map exit codes:
//! one per subcommand, `remote` for the remote tier (`push`, `pull`, `gc --remote`), and
//! `common` for what they share.

mod clear;
mod common;
mod gc;
mod info;
mod remote;
mod verify;

use std::io::Write;
use std::path::PathBuf;

use cann_runtime::cache::EnvSnapshot;

use crate::cli::{CacheArgs, CacheCommand};
use common::{lang, resolve, BoxError};

/// Runs a cache command. `Ok(0)` clean, `Ok(1)` errors found (verify), `Err` bad input.
pub fn run(cmd: &CacheCommand, out: &mut dyn Write) -> Result<u8, BoxError> {
    let (args, env) = with_config(cmd.args(), EnvSnapshot::from_process())?;
    let args = &args;
    match cmd {
        CacheCommand::Info { .. } => info::info(args, &env, out),
        CacheCommand::Gc {
            dry_run,
            remote: Some(url),
            max_size,
            ..
        } => remote::gc(
            args,
            &resolve(args, &env)?,
            &env,
            url,
            *max_size,
            *dry_run,
            out,
        ),
        CacheCommand::Gc { dry_run, .. } => gc::gc(args, *dry_run, &env, out),
        CacheCommand::Verify { .. } => verify::verify(args, &env, out),
        CacheCommand::Clear { .. } => clear::clear(args, &env, out),
        CacheCommand::Push { remote, .. } => {
            remote::push(args, &resolve(args, &env)?, &env, remote, out)
        }
        CacheCommand::Pull {
            remote,
            soc,
            binary_format,
            ..
        } => {
            let want = remote::Want {
                socs: soc,
                binary_formats: binary_format,
            };
            remote::pull(args, &resolve(args, &env)?, &env, remote, &want, out)
        }
    }
}

/// Applies a config file: its cache directory (unless DIR is given) and its environment
/// variables over the process's.
fn with_config(
    args: &CacheArgs,
    mut env: EnvSnapshot,
) -> Result<(CacheArgs, EnvSnapshot), BoxError> {
    let mut args = args.clone();
    let Some(path) = &args.config else {
        return Ok((args, env));
    };
    // The same reader and parser as `check`, so both accept and refuse the same files.
    let file = super::load(path, lang(&args))?.file;
    struct EnvVars(Vec<(&'static str, String)>);
    impl cann_config::Visitor for EnvVars {
        fn value(
            &mut self,
            o: &'static cann_config::meta::OptionMeta,
            v: cann_config::ValueRef<'_>,
        ) {
            if let Some(name) = o.env {
                self.0.push((name, cann_config::emit::plain(v)));
            }
        }
    }
    let mut vars = EnvVars(Vec::new());
    cann_config::Visit::visit(&file.config, &mut vars);
    for (name, value) in vars.0 {
        env = env.with(name, value);
    }
    if args.dir.is_none() {
        args.dir = file
            .config
            .npu_run_config
            .as_ref()
            .and_then(|r| r.op_compiler_cache_dir.as_ref())
            .map(PathBuf::from);
    }
    Ok((args, env))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::cli::OutputFormat;
    use cann_runtime::cache::{self, Cache, CacheDir, OpenOptions};

    fn args(dir: &std::path::Path, format: OutputFormat) -> CacheArgs {
        CacheArgs {
            dir: Some(dir.to_path_buf()),
            format,
            config: None,
            lang: crate::cli::LangArg::En,
        }
    }

    fn run_str(cmd: &CacheCommand) -> (Result<u8, String>, String) {
        let mut buf = Vec::new();
        let r = run(cmd, &mut buf).map_err(|e| e.to_string());
        (r, String::from_utf8(buf).unwrap())
    }

    fn populated() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let dir = CacheDir::explicit(t.path()).unwrap();
        let c = Cache::open(&dir, OpenOptions::default()).unwrap();
        c.put("soc/te_a", b"bin", ".o", None).unwrap();
        std::fs::write(
            t.path().join("op_cache.ini"),
            "[op_compiler_cache]\nmax_op_cache_size=0\nremain_cache_size_ratio=80\n",
        )
        .unwrap();
        t
    }

    #[test]
    fn info_human_and_json() {
        let t = populated();
        let (r, text) = run_str(&CacheCommand::Info {
            cache: args(t.path(), OutputFormat::Human),
        });
        assert_eq!(r, Ok(0));
        assert!(
            text.contains("1 entries") && text.contains("limit:           500 MB (default)"),
            "{text}"
        );
        assert!(
            text.contains("warning:") && text.contains("max_op_cache_size = `0`"),
            "{text}"
        );
        let (r, text) = run_str(&CacheCommand::Info {
            cache: args(t.path(), OutputFormat::Json),
        });
        assert_eq!(r, Ok(0));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["info"]["entries"], 1);
    }

    #[test]
    fn info_and_gc_speak_the_language_asked_for() {
        let t = populated();
        let zh = |format| CacheArgs {
            lang: crate::cli::LangArg::Zh,
            ..args(t.path(), format)
        };
        let (r, text) = run_str(&CacheCommand::Info {
            cache: zh(OutputFormat::Human),
        });
        assert_eq!(r, Ok(0));
        assert!(
            text.contains("启动检查") && text.contains("默认值") && !text.contains("start-up"),
            "{text}"
        );
        // The limit findings of op_cache.ini too.
        assert!(text.contains("警告："), "{text}");
        let (_, text) = run_str(&CacheCommand::Gc {
            cache: zh(OutputFormat::Human),
            dry_run: true,
            remote: None,
            max_size: None,
        });
        assert!(text.contains("没有需要删除的内容"), "{text}");
        let (r, _) = run_str(&CacheCommand::Info {
            cache: CacheArgs {
                lang: crate::cli::LangArg::Zh,
                ..args(&t.path().join("nope"), OutputFormat::Human)
            },
        });
        assert!(r.unwrap_err().contains("没有算子编译缓存"));
    }

    #[test]
    fn verify_exit_codes() {
        let t = populated();
        assert_eq!(
            run_str(&CacheCommand::Verify {
                cache: args(t.path(), OutputFormat::Human)
            })
            .0,
            Ok(0)
        );
        std::fs::write(
            t.path().join("kernel_cache/soc/te_b.json"),
            r#"{"binFileName":"te_b","binFileSuffix":".o"}"#,
        )
        .unwrap();
        // Just written: possibly a compiler still at work, a warning.
        let (r, text) = run_str(&CacheCommand::Verify {
            cache: args(t.path(), OutputFormat::Human),
        });
        assert_eq!(r, Ok(0));
        assert!(
            text.contains("warning: entry soc/te_b.json incomplete"),
            "{text}"
        );
        // Written an hour ago and still missing its binary: torn.
        let hour_ago = cache::clock::system_now() - 3_600_000_000_000;
        cache::set_file_times(
            &t.path().join("kernel_cache/soc/te_b.json"),
            hour_ago,
            hour_ago,
        )
        .unwrap();
        let (r, text) = run_str(&CacheCommand::Verify {
            cache: args(t.path(), OutputFormat::Human),
        });
        assert_eq!(r, Ok(1));
        assert!(text.contains("error: torn entry soc/te_b.json"), "{text}");
    }

    #[test]
    fn gc_dry_run_and_clear() {
        let t = populated();
        let (r, text) = run_str(&CacheCommand::Gc {
            cache: args(t.path(), OutputFormat::Human),
            dry_run: true,
            remote: None,
            max_size: None,
        });
        assert_eq!(r, Ok(0));
        assert!(text.contains("nothing to remove"), "{text}");
        let (r, text) = run_str(&CacheCommand::Clear {
            cache: args(t.path(), OutputFormat::Json),
        });
        assert_eq!(r, Ok(0));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["files_removed"], 2);
    }

    #[test]
    fn missing_cache_and_bad_characters_are_input_errors() {
        let t = tempfile::tempdir().unwrap();
        let (r, _) = run_str(&CacheCommand::Info {
            cache: args(&t.path().join("nope"), OutputFormat::Human),
        });
        assert!(r.unwrap_err().contains("no operator compile cache"));
        let (r, _) = run_str(&CacheCommand::Gc {
            cache: args(std::path::Path::new("/tmp/a b"), OutputFormat::Human),
            dry_run: false,
            remote: None,
            max_size: None,
        });
        assert!(r.unwrap_err().contains("allowed are"));
        assert!(!t.path().join("nope").exists(), "a query creates nothing");
    }
}
