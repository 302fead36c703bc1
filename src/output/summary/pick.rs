//! The weights chosen from a file that holds weights, with a title saying what they are.
//! Individuals of a population (checkpoint or original population file) are numbered from 1,
//! as the original tool did.

use super::layout::{wrap, TABLE_WIDTH};
use super::ReportError;
use crate::eval::Weights;
use crate::formats::{Input, InputKind};
use crate::tournament::Standing;

/// The weights chosen from an input, with what they are.
#[derive(Clone, Debug, PartialEq)]
pub struct Picked {
    /// The weights chosen.
    pub weights: Weights,
    /// What kind of input they came from.
    pub kind: InputKind,
    /// What was chosen, on one line, e.g. `checkpoint, session 'x', generation 3, best so far`.
    pub title: String,
    /// More lines about it (a comment, an individual's results).
    pub details: Vec<String>,
    /// A JSON file's comment.
    pub comment: Option<String>,
    /// The outside engine whose parameters the weights stand for (a session of an outside
    /// engine, or its parameter file); None: our weights.
    pub engine: Option<Box<crate::genome::EngineSpec>>,
}

fn individual_index(k: usize, n: usize, of_what: &str) -> Result<usize, ReportError> {
    if n == 0 {
        return Err(ReportError::Individual(format!(
            "{of_what} is empty: there is no individual {k}"
        )));
    }
    if k == 0 || k > n {
        return Err(ReportError::Individual(format!(
            "--individual {k} is out of range: {of_what} has {n} individual{} (numbered 1..={n})",
            if n == 1 { "" } else { "s" }
        )));
    }
    Ok(k - 1)
}

/// A standing as one line: points and W/D/L by colour.
pub fn standing_text(s: &Standing) -> String {
    format!(
        "{} points in {} games; W/D/L as Black {}/{}/{}, as White {}/{}/{}",
        s.points,
        s.games(),
        s.wins_black,
        s.draws_black,
        s.losses_black,
        s.wins_white,
        s.draws_white,
        s.losses_white
    )
}

/// Chooses the weights to show or export: a weight file's weights; a checkpoint's best so far,
/// or with `individual = Some(K)` the K-th individual (from 1) of its last evaluated population;
/// a population file's individual K (default 1).
pub fn select(input: &Input, individual: Option<usize>) -> Result<Picked, ReportError> {
    match input {
        Input::Weights {
            kind,
            weights,
            comment,
        } => {
            if individual.is_some() {
                return Err(ReportError::Individual(format!(
                    "--individual applies to checkpoints and population files, not to a {}",
                    kind.description()
                )));
            }
            Ok(Picked {
                weights: *weights,
                kind: *kind,
                title: kind.description().to_string(),
                details: comment
                    .iter()
                    .flat_map(|c| wrap(&format!("comment: {c}"), TABLE_WIDTH, "  "))
                    .collect(),
                comment: comment.clone(),
                engine: None,
            })
        }
        Input::Population {
            generation,
            individuals,
        } => {
            let k = individual.unwrap_or(1);
            let i = individual_index(k, individuals.len(), "the population file")?;
            let gen = generation
                .as_ref()
                .map(|g| format!(", generation {g}"))
                .unwrap_or_default();
            Ok(Picked {
                weights: individuals[i],
                kind: InputKind::OriginalPopulation,
                title: format!(
                    "{}{gen}, individual {k} of {}",
                    InputKind::OriginalPopulation.description(),
                    individuals.len()
                ),
                details: Vec::new(),
                comment: None,
                engine: None,
            })
        }
        Input::Engine(p) => {
            if individual.is_some() {
                // A one-file tuner's session reads as its answer's parameter file.
                return Err(ReportError::Individual(format!(
                    "--individual applies to a GA session's checkpoints and population files, \
                     not to an {} or a one-file tuner's session (one answer, no population)",
                    InputKind::EngineParams.description()
                )));
            }
            let from = match &p.origin {
                Some(o) => format!(", {o}"),
                None => String::new(),
            };
            Ok(Picked {
                weights: p.weights,
                kind: InputKind::EngineParams,
                title: format!(
                    "{} of '{}'{from}",
                    InputKind::EngineParams.description(),
                    p.spec.engine.name
                ),
                details: p
                    .comment
                    .iter()
                    .flat_map(|c| wrap(&format!("comment: {c}"), TABLE_WIDTH, "  "))
                    .collect(),
                comment: p.comment.clone(),
                engine: Some(Box::new(p.spec.clone())),
            })
        }
        Input::Checkpoint(s) => {
            // A session of an outside engine is titled as every tuner's session of one is.
            let engine = s.settings.engine.is_some();
            let head = match engine {
                true => format!(
                    "GA session '{}', {}, seed {}:",
                    s.name,
                    s.progress(),
                    s.settings.seed
                ),
                false => format!(
                    "checkpoint, session '{}', generation {},",
                    s.name, s.generation
                ),
            };
            match individual {
                None => {
                    let Some(best) = s.answer() else {
                        return Err(ReportError::Empty(format!(
                            "session '{}' has no best so far yet (no generation played)",
                            s.name
                        )));
                    };
                    Ok(Picked {
                        weights: best,
                        kind: InputKind::Checkpoint,
                        // Under the mean the answer is the centres' average, not an
                        // individual that won anything.
                        title: match (s.settings.ga.method.mean().is_some(), engine) {
                            (true, true) => format!("{head} the centres' average"),
                            (true, false) => format!("{head} the answer"),
                            (false, _) => format!("{head} best so far"),
                        },
                        details: Vec::new(),
                        comment: None,
                        engine: s.settings.engine.clone().map(Box::new),
                    })
                }
                Some(k) => {
                    let what = format!("the last evaluated population of session '{}'", s.name);
                    let i = individual_index(k, s.last.len(), &what)?;
                    let (w, st) = &s.last[i];
                    Ok(Picked {
                        weights: *w,
                        kind: InputKind::Checkpoint,
                        title: format!("{head} individual {k} of {}", s.last.len()),
                        details: vec![format!(
                            "played in generation {}: {}",
                            s.generation,
                            standing_text(st)
                        )],
                        comment: None,
                        engine: s.settings.engine.clone().map(Box::new),
                    })
                }
            }
        }
    }
}

impl Picked {
    /// The chosen weights exported as `format`, as `export` writes them: our weights in any
    /// format for weights ([`crate::formats::export()`]), titled by `file_name` (the input's
    /// name) and `title` (what was chosen; the pick's own when None), their C or Rust names
    /// under `prefix` (from the file name when None); an outside engine's values as its
    /// `set-param` lines (`hub`) or by name (`json`). A format the chosen weights do not
    /// export to, or a prefix that is not an identifier, is [`ReportError::Option`].
    pub fn export(
        &self,
        format: crate::formats::ExportFormat,
        file_name: &str,
        title: Option<&str>,
        prefix: Option<&str>,
    ) -> Result<String, ReportError> {
        use crate::formats::{self, ExportFormat};
        if let Some(engine) = &self.engine {
            return match format {
                ExportFormat::Hub => Ok(formats::set_param_script(engine, &self.weights)),
                ExportFormat::Json => Ok(formats::values_json(engine, &self.weights)),
                f => Err(ReportError::Option(format!(
                    "--format {}: an outside engine's parameters export as {} (hub: its \
                     set-param lines; json: the values by name)",
                    f.name(),
                    ExportFormat::names(ExportFormat::for_engine)
                ))),
            };
        }
        if !format.for_weights() {
            return Err(ReportError::Option(format!(
                "--format {}: only an outside engine's parameters export as {0} (its set-param \
                 lines); weights export as {}",
                format.name(),
                ExportFormat::names(ExportFormat::for_weights)
            )));
        }
        let source = format!("{file_name} ({})", title.unwrap_or(&self.title));
        let prefix = match prefix {
            Some(p) => formats::check_prefix(p).map_err(|e| ReportError::Option(e.to_string()))?,
            None => formats::prefix_from_name(file_name),
        };
        let comment = self.comment.as_deref();
        formats::export(&self.weights, format, &source, comment, &prefix)
            .map_err(|e| ReportError::Option(e.to_string()))
    }
}
