//! The search's tunable constants: late-move reductions, aspiration windows and futility
//! pruning, each off at its neutral value ([`SearchParams::NEUTRAL`], the plain alpha-beta of
//! a fixed-depth search), and their names as the Hub engine declares them.
//!
//! They are not [`super::SearchConfig`] (which session checkpoints hold): a searcher holds them
//! beside it ([`super::Searcher::with_params`]).

/// The constants of the search's reductions and pruning. Every feature has one switch that
/// turns it off at 0 (`lmr_reduction`, `aspiration`, `futility`); the other constants of a
/// feature that is off change nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Late-move reductions: reduced at a remaining depth of at least this many plies.
    pub lmr_depth: u32,
    /// Late-move reductions: the first this many moves of a node (in search order) are never
    /// reduced.
    pub lmr_moves: u32,
    /// Late-move reductions: the plies a late quiet move is searched shallower, with a null
    /// window, before a full search when it beats alpha (0: off). Quiet: the side to move has
    /// no capture (captures are forced, so a node has only captures or none); never reduced:
    /// the table move (searched first), moves that crown and the node's killers.
    pub lmr_reduction: u32,
    /// Aspiration windows: the half-width of the root window around the previous iteration's
    /// value, in hundredths of a man (0: off, the full window; at least one unit of the
    /// evaluation when on). A value outside it is searched
    /// again with a window four times as wide, and then the full window once the window would
    /// reach the scores of wins. Only iterative deepening has a previous iteration: a timed
    /// search's depths after the first.
    pub aspiration: i32,
    /// Futility pruning: the margin per ply, in hundredths of a man (0: off; at least one unit
    /// of the evaluation when on). A node at most
    /// `futility_depth` plies from the horizon whose side to move has no capture, whose static
    /// value plus `futility * depth` is at most alpha (an evaluation, not a win or loss), is
    /// not searched: that sum is its value, an upper bound.
    pub futility: i32,
    /// Futility pruning: the remaining depths (1 to this) where it acts.
    pub futility_depth: u32,
}

impl SearchParams {
    /// Every feature off: the plain alpha-beta (exactly the search without them, node for
    /// node), what a fixed-depth search uses unless given others.
    pub const NEUTRAL: SearchParams = SearchParams {
        lmr_depth: 3,
        lmr_moves: 3,
        lmr_reduction: 0,
        aspiration: 0,
        futility: 0,
        futility_depth: 1,
    };

    /// The tuned defaults, what a timed search uses unless given others (`match --tc`,
    /// `play --tc`, `hub` on a clock): the answer of a GA session that tuned these six
    /// constants through the Hub protocol with every game on a clock of 0.02 s a move
    /// (docs/results.md, "Our search tuned on a clock"). Futility pruning at the last two
    /// plies with a margin of 0.84 men a ply and an aspiration window of 0.21 men; late-move
    /// reductions stay off (`lmr_reduction` 0), so `lmr_depth` and `lmr_moves`, kept as
    /// tuned, change nothing.
    pub const DEFAULT: SearchParams = SearchParams {
        lmr_depth: 5,
        lmr_moves: 4,
        lmr_reduction: 0,
        aspiration: 21,
        futility: 84,
        futility_depth: 2,
    };

    /// Each constant as the Hub engine declares it: its name, range and value in `self`, in
    /// declaration order.
    pub fn declared(&self) -> [ParamSpec; 6] {
        [
            ParamSpec::new("lmr-depth", 2, 12, self.lmr_depth as i64),
            ParamSpec::new("lmr-moves", 1, 16, self.lmr_moves as i64),
            ParamSpec::new("lmr-reduction", 0, 3, self.lmr_reduction as i64),
            ParamSpec::new("aspiration", 0, 200, self.aspiration as i64),
            ParamSpec::new("futility", 0, 500, self.futility as i64),
            ParamSpec::new("futility-depth", 1, 3, self.futility_depth as i64),
        ]
    }

    /// Sets the constant named `name` ([`Self::declared`]'s names) to `value`; a one-line
    /// error for an unknown name or a value that is not a whole number in its range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(spec) = self.declared().into_iter().find(|p| p.name == name) else {
            let names: Vec<&str> = self.declared().iter().map(|p| p.name).collect();
            return Err(format!(
                "{name}: not a search parameter (they are {})",
                names.join(", ")
            ));
        };
        let v = value
            .parse::<i64>()
            .ok()
            .filter(|v| (spec.min..=spec.max).contains(v))
            .ok_or_else(|| {
                format!(
                    "{name}={value} must be a whole number {}..{}",
                    spec.min, spec.max
                )
            })?;
        match name {
            "lmr-depth" => self.lmr_depth = v as u32,
            "lmr-moves" => self.lmr_moves = v as u32,
            "lmr-reduction" => self.lmr_reduction = v as u32,
            "aspiration" => self.aspiration = v as i32,
            "futility" => self.futility = v as i32,
            _ => self.futility_depth = v as u32,
        }
        Ok(())
    }

    /// A margin of `centi` hundredths of a man in the evaluator's values, `man` being one man:
    /// 0 when off (`centi` at most 0), else at least 1.
    pub(super) fn units(&self, centi: i32, man: i32) -> i32 {
        if centi <= 0 {
            return 0;
        }
        (i64::from(centi) * i64::from(man) / 100).clamp(1, i64::from(i32::MAX)) as i32
    }

    /// Reads `neutral`, `default`, or either followed by `,NAME=VALUE` items (e.g.
    /// `default,lmr-reduction=2`; a bare list of items starts from `neutral`); a one-line
    /// error otherwise.
    pub fn parse(text: &str) -> Result<SearchParams, String> {
        let mut p = SearchParams::NEUTRAL;
        for (i, item) in text.split(',').map(str::trim).enumerate() {
            match (i, item) {
                (0, "neutral") => p = SearchParams::NEUTRAL,
                (0, "default") => p = SearchParams::DEFAULT,
                _ => {
                    let Some((name, value)) = item.split_once('=') else {
                        return Err(format!(
                            "search parameters '{text}': '{item}' is not neutral, default \
                             or NAME=VALUE"
                        ));
                    };
                    p.set(name.trim(), value.trim())
                        .map_err(|e| format!("search parameters '{text}': {e}"))?;
                }
            }
        }
        Ok(p)
    }
}

/// A search constant as the Hub engine declares it: an `int` with a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Its name (`lmr-reduction`, ...).
    pub name: &'static str,
    /// Its least value.
    pub min: i64,
    /// Its greatest value.
    pub max: i64,
    /// Its value.
    pub value: i64,
}

impl ParamSpec {
    const fn new(name: &'static str, min: i64, max: i64, value: i64) -> ParamSpec {
        ParamSpec {
            name,
            min,
            max,
            value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_value_lies_in_its_range_and_set_reads_back_what_it_declares() {
        for p in [SearchParams::NEUTRAL, SearchParams::DEFAULT] {
            for spec in p.declared() {
                assert!((spec.min..=spec.max).contains(&spec.value), "{spec:?}");
                let mut q = SearchParams::NEUTRAL;
                q.set(spec.name, &spec.max.to_string()).unwrap();
                let back = q.declared().into_iter().find(|s| s.name == spec.name);
                assert_eq!(back.unwrap().value, spec.max);
                let e = q.set(spec.name, &(spec.max + 1).to_string()).unwrap_err();
                assert!(e.starts_with(&format!("{}=", spec.name)), "{e}");
                assert!(q.set(spec.name, "x").is_err());
            }
        }
        // The switches are off in NEUTRAL.
        let n = SearchParams::NEUTRAL;
        assert_eq!((n.lmr_reduction, n.aspiration, n.futility), (0, 0, 0));
        assert!(SearchParams::NEUTRAL.clone().set("depth", "3").is_err());
    }

    #[test]
    fn parse_reads_a_base_and_items_and_names_what_is_wrong() {
        assert_eq!(SearchParams::parse("neutral"), Ok(SearchParams::NEUTRAL));
        assert_eq!(SearchParams::parse("default"), Ok(SearchParams::DEFAULT));
        let p = SearchParams::parse("default, lmr-reduction=2,futility=150").unwrap();
        assert_eq!((p.lmr_reduction, p.futility), (2, 150));
        assert_eq!(p.aspiration, SearchParams::DEFAULT.aspiration);
        let p = SearchParams::parse("aspiration=30").unwrap();
        assert_eq!(p.aspiration, 30);
        assert_eq!(p.lmr_reduction, SearchParams::NEUTRAL.lmr_reduction);
        for bad in [
            "",
            "fast",
            "neutral,default",
            "lmr-reduction",
            "futility=-1",
        ] {
            let e = SearchParams::parse(bad).unwrap_err();
            assert!(e.starts_with("search parameters"), "{bad}: {e}");
            assert!(!e.contains('\n'));
        }
    }
}
