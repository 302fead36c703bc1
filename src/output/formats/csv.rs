//! The CSV weight file: a header line `number,name,weight`, then one line per parameter.

use super::{fail, FormatError};
use crate::eval::{ParamSet, Weights, MAX_WEIGHTS};
use std::fmt::Write as _;

/// CSV: a header line `number,name,weight`, then one line per parameter in weight order (the
/// names tell the parameter set).
pub fn to_csv(w: &Weights) -> String {
    let mut s = String::from("number,name,weight\n");
    for (i, p) in w.set().params().iter().enumerate() {
        let _ = writeln!(s, "{},{},{}", i + 1, p.name, w[i]);
    }
    s
}

/// Reads the CSV of [`to_csv`]: the header line, then one line `number,name,weight` for every
/// parameter (any order, each once; the name must be that parameter's name).
pub fn parse_csv(text: &str) -> Result<Weights, FormatError> {
    let mut lines = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let header = lines.next().map(|(_, l)| l.trim()).unwrap_or("");
    let cols: Vec<String> = header
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    if cols != ["number", "name", "weight"] {
        return fail(format!(
            "CSV: the first line is '{header}', expected 'number,name,weight'"
        ));
    }
    let mut rows: Vec<(usize, Vec<&str>)> = Vec::new();
    for (lineno, line) in lines {
        let ln = lineno + 1;
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 3 {
            return fail(format!(
                "CSV line {ln}: {} fields, expected 3 (number,name,weight)",
                f.len()
            ));
        }
        rows.push((ln, f));
    }
    // The set: the one whose parameter names the rows use (the 60's names are in every set).
    let set = ParamSet::every()
        .find(|s| rows.iter().all(|(_, f)| s.index_of(f[1]).is_some()))
        .unwrap_or(ParamSet::Thesis60);
    let params = set.params();
    let n_max = set.len();
    let mut values: [Option<i16>; MAX_WEIGHTS] = [None; MAX_WEIGHTS];
    for (ln, f) in rows {
        let n: usize = f[0]
            .parse()
            .ok()
            .filter(|n| (1..=n_max).contains(n))
            .ok_or_else(|| {
                FormatError::Invalid(format!(
                    "CSV line {ln}: parameter number '{}' is not in 1..={n_max}",
                    f[0]
                ))
            })?;
        let p = &params[n - 1];
        if f[1] != p.name {
            return fail(format!(
                "CSV line {ln}: parameter {n} is named '{}', not '{}'",
                p.name, f[1]
            ));
        }
        if values[n - 1].is_some() {
            return fail(format!(
                "CSV line {ln}: parameter {n} ({}) is given more than once",
                p.name
            ));
        }
        let v: i16 = f[2].parse().map_err(|_| {
            FormatError::Invalid(format!(
                "CSV line {ln}: weight of {} is '{}', not an integer in -32768..=32767",
                p.name, f[2]
            ))
        })?;
        values[n - 1] = Some(v);
    }
    let missing: Vec<&str> = (0..n_max)
        .filter(|&i| values[i].is_none())
        .map(|i| params[i].name)
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(5).copied().collect();
        return fail(format!(
            "CSV: {} parameter{} missing: {}{}",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if missing.len() > 5 { ", ..." } else { "" }
        ));
    }
    let w: Vec<i16> = values[..n_max].iter().map(|v| v.unwrap_or(0)).collect();
    Ok(Weights::new(set, &w).expect("one value per parameter"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::NUM_PARAMS;

    #[test]
    fn csv_round_trip_and_errors() {
        let mut w = [0i16; NUM_PARAMS];
        for (i, x) in w.iter_mut().enumerate() {
            *x = (i as i16 - 30) * 1000;
        }
        w[0] = i16::MIN;
        w[1] = i16::MAX;
        assert_eq!(
            parse_csv(&to_csv(&Weights::thesis(w))).unwrap(),
            Weights::thesis(w)
        );
        assert!(parse_csv("number,name,weight\n1,kings,3\n").is_err());
        assert!(parse_csv("a,b,c\n").is_err());
        let short = to_csv(&Weights::thesis(w)).replace("60,opp_longest_block_line,29000\n", "");
        assert!(parse_csv(&short)
            .unwrap_err()
            .to_string()
            .contains("opp_longest_block_line"));
    }
}
