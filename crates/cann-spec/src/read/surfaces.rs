//! The API surfaces an option is set on (Estimator keyword, session `parameter_map`, TF2
//! `global_options`, environment variable), as options and retired options both write them.

use std::path::Path;

use super::{list, read_literal, MapReader};
use crate::diag::Diagnostics;
use crate::keys as k;
use crate::model::{Accessor, Encoding, Literal, PyDefault, Surfaces};
use crate::yaml::{Kind, Node};

/// `estimator`, `session`, `tf2` and `env` of a mapping: an option, or a removal entry.
pub(crate) fn read_surfaces(r: &MapReader<'_>, d: &mut Diagnostics) -> Surfaces {
    let file = r.file();
    let session = r.get(k::SESSION).and_then(|s| {
        let sr = MapReader::new(file, s, "`session`", &[k::NAME, k::ACCESSOR], d)?;
        let sname = sr.string(k::NAME, "`session`", d)?;
        let acc = sr.string(k::ACCESSOR, "`session`", d)?;
        let accessor = match acc.as_str() {
            "i" => Accessor::I,
            "s" => Accessor::S,
            "b" => Accessor::B,
            other => {
                d.error(sr.loc(), format!("unknown accessor `{other}`"))
                    .expected(list(k::ACCESSORS));
                return None;
            }
        };
        Some((sname, accessor))
    });
    let estimator = r.get(k::ESTIMATOR).and_then(|e| read_keyword(file, e, d));
    let tf2 = r.get(k::TF2).and_then(|t| read_tf2(file, t, d));
    let (estimator, estimator_default) = estimator.unzip();
    let tf2 = tf2.unwrap_or_default();
    Surfaces {
        estimator,
        estimator_default: estimator_default.unwrap_or_default(),
        session,
        tf2_as: tf2.encoding(),
        tf2: tf2.path,
        tf2_default: tf2.default,
        tf2_values: tf2.values,
        env: r.opt_string(k::ENV, d),
    }
}

/// `estimator: NAME` (a keyword defaulting to `None`), or
/// `estimator: { name: NAME, default: VALUE }` / `{ name: NAME, required: true }`.
fn read_keyword(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<(String, PyDefault)> {
    if let Some(name) = n.as_str() {
        return Some((name.to_string(), PyDefault::None));
    }
    let what = "`estimator`";
    let r = MapReader::new(file, n, what, &[k::NAME, k::DEFAULT, k::REQUIRED], d)?;
    let name = r.string(k::NAME, what, d)?;
    let required = r
        .get(k::REQUIRED)
        .map(|v| matches!(v.kind, Kind::Bool(true)));
    let default = match (r.get(k::DEFAULT), required) {
        (Some(_), Some(true)) => {
            d.error(
                r.loc(),
                format!("keyword `{name}` cannot both be required and have a default"),
            );
            PyDefault::Required
        }
        (_, Some(true)) => PyDefault::Required,
        (None, _) => PyDefault::None,
        (Some(v), _) => match v.kind {
            Kind::Null => PyDefault::None,
            _ => read_literal(file, v, d).map_or(PyDefault::None, PyDefault::Lit),
        },
    };
    Some((name, default))
}

fn read_tf2(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<Tf2> {
    if let Some(p) = n.as_str() {
        return Some(Tf2 {
            path: Some(p.to_string()),
            ..Tf2::default()
        });
    }
    let what = "`tf2`";
    let r = MapReader::new(file, n, what, &[k::PATH, k::DEFAULT, k::VALUES], d)?;
    let path = r.string(k::PATH, what, d)?;
    let default = r.get(k::DEFAULT).and_then(|v| match v.kind {
        Kind::Null => None,
        _ => read_literal(file, v, d),
    });
    let values = r.get(k::VALUES).map(|_| {
        r.seq(k::VALUES, what, d)
            .iter()
            .map(|v| match v.kind {
                Kind::Null => None,
                _ => read_literal(file, v, d),
            })
            .collect()
    });
    Some(Tf2 {
        path: Some(path),
        default,
        values,
    })
}

/// What the `tf2:` key says: `tf2: PATH`, or `tf2: { path, default, values }` with the
/// default and accepted values of TF2's `OptionValue`.
#[derive(Default)]
struct Tf2 {
    path: Option<String>,
    default: Option<Literal>,
    values: Option<Vec<Option<Literal>>>,
}

impl Tf2 {
    /// The one Python type of the default and the values, if they agree on one.
    fn encoding(&self) -> Option<Encoding> {
        let mut lits = self
            .default
            .iter()
            .chain(self.values.iter().flatten().flatten());
        let first = lits.next()?;
        // A float is carried as the float option it belongs to: no encoding of its own.
        let enc = |l: &Literal| match l {
            Literal::Bool(_) => Some(Encoding::Bool),
            Literal::Int(_) => Some(Encoding::Int),
            Literal::Float(_) => None,
            Literal::Str(_) => Some(Encoding::Str),
        };
        let e = enc(first)?;
        lits.all(|l| enc(l) == Some(e)).then_some(e)
    }
}
