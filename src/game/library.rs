//! Where new games come from: the `puzzles/` folder (TOML files, or line files named
//! `<variant>[-<difficulty>].txt`), falling back to the built-in puzzles.

use super::builtin;
use crate::format::{
    load_file, parse_toml, parse_toml_file, read_small_file, regular_file_size, MAX_FILE_BYTES,
};
use crate::puzzle::{Puzzle, Variant};
use std::path::{Path, PathBuf};

/// Difficulty names offered by the new-game menu (`any` takes whatever exists).
pub const DIFFICULTIES: [&str; 6] = ["any", "easy", "medium", "hard", "unfair", "extreme"];

/// The folders searched for puzzles: `$TERMDOKU_PUZZLES_DIR`, `./puzzles`, and `puzzles/`
/// next to the binary or up to three levels above it (a cargo target folder).
pub fn puzzle_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("TERMDOKU_PUZZLES_DIR") {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(PathBuf::from("puzzles"));
    if let Ok(exe) = std::env::current_exe() {
        let mut at = exe.parent().map(Path::to_path_buf);
        for _ in 0..4 {
            let Some(dir) = at else { break };
            dirs.push(dir.join("puzzles"));
            at = dir.parent().map(Path::to_path_buf);
        }
    }
    dirs
}

fn matches(p: &Puzzle, variant: Variant, size: usize, difficulty: &str) -> bool {
    p.variant() == variant
        && side(p) == size
        && (difficulty == "any"
            || p.difficulty
                .as_deref()
                .is_some_and(|d| d.eq_ignore_ascii_case(difficulty)))
}

/// A puzzle's grid side (9 for a honeycomb).
pub fn side(p: &Puzzle) -> usize {
    usize::from(p.geometry().max_digit())
}

/// A line file's name read as `<variant>[-<N>x<N>][-<level>]`: the variant, the side
/// (default 9) and the level (default `any`).
fn line_file_name(stem: &str) -> Option<(Variant, usize, &str)> {
    let mut parts = stem.splitn(3, '-');
    let variant = Variant::parse(parts.next()?)?;
    let mut size = 9;
    let mut level = "any";
    for part in parts {
        match part
            .split_once('x')
            .and_then(|(a, b)| (a == b).then_some(a))
        {
            Some(n) => size = n.parse().ok()?,
            None => level = part,
        }
    }
    Some((variant, size, level))
}

/// Every puzzle of this variant, side and difficulty found in `dirs` (unreadable files
/// skipped).
pub fn find(dirs: &[PathBuf], variant: Variant, size: usize, difficulty: &str) -> Vec<Puzzle> {
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            // Regular files of a sane size only: a FIFO or device here would block the
            // player's start, and a huge file would exhaust memory.
            if name.ends_with(".toml") {
                if let Ok(bytes) = read_small_file(&path) {
                    // One puzzle or a `[[puzzle]]` collection (the shipped jigsaw and killer sets).
                    if let Ok(list) = parse_toml_file(&bytes, &name) {
                        out.extend(
                            list.into_iter()
                                .filter(|p| matches(p, variant, size, difficulty)),
                        );
                    }
                }
            } else if let Some(stem) = name.strip_suffix(".txt") {
                let Some((v, n, d)) = line_file_name(stem) else {
                    continue;
                };
                if v != variant || (variant != Variant::Honeycomb && n != size) {
                    continue;
                }
                if difficulty != "any" && !d.eq_ignore_ascii_case(difficulty) {
                    continue;
                }
                if !regular_file_size(&path).is_ok_and(|n| n <= MAX_FILE_BYTES) {
                    continue;
                }
                if let Ok(list) = load_file(&path, variant) {
                    out.extend(list.into_iter().filter(|p| side(p) == size).map(|mut p| {
                        if d != "any" {
                            p.difficulty = Some(d.to_string());
                        }
                        p
                    }));
                }
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// A puzzle for a new game: a pseudo-random pick from the folders, else the built-in one.
/// The second value says where it came from.
pub fn pick(variant: Variant, size: usize, difficulty: &str, seed: u64) -> (Puzzle, String) {
    let size = if variant == Variant::Honeycomb {
        9
    } else {
        size
    };
    let mut found = find(&puzzle_dirs(), variant, size, difficulty);
    if found.is_empty() {
        found = embedded(variant, size, difficulty);
    }
    if found.is_empty() {
        let note = if difficulty == "any" && size == 9 {
            format!("built-in {variant} puzzle")
        } else {
            format!(
                "no {difficulty} {variant} {size}x{size} puzzles found in puzzles/: built-in \
                 9x9 one instead"
            )
        };
        return (builtin::puzzle(variant), note);
    }
    let i = (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) as usize % found.len();
    let p = found[i].clone();
    (p, format!("puzzle {} of {}", i + 1, found.len()))
}

/// The collections built into the binary (`puzzles/` at build time), so a player installed
/// anywhere still has every variant and level.
pub fn embedded(variant: Variant, size: usize, difficulty: &str) -> Vec<Puzzle> {
    crate::generate::shipped::collections()
        .iter()
        .filter(|c| {
            c.variant == variant
                && c.size == size
                && (difficulty == "any" || c.level.to_string().eq_ignore_ascii_case(difficulty))
        })
        .flat_map(|c| {
            c.puzzles().unwrap_or_default().into_iter().map(|mut p| {
                p.difficulty = Some(c.level.to_string());
                p
            })
        })
        .collect()
}

/// The grid sides a variant's new games come in (those with shipped puzzles).
pub fn sizes(variant: Variant) -> Vec<usize> {
    let mut out: Vec<usize> = crate::generate::shipped::collections()
        .iter()
        .filter(|c| c.variant == variant)
        .map(|c| c.size)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The levels shipped for a variant and side, easiest first.
pub fn levels(variant: Variant, size: usize) -> Vec<&'static str> {
    DIFFICULTIES[1..]
        .iter()
        .copied()
        .filter(|l| {
            crate::generate::shipped::collections()
                .iter()
                .any(|c| c.variant == variant && c.size == size && c.level.to_string() == *l)
        })
        .collect()
}

/// The file in the state folder that remembers the last puzzle played of each collection.
const POSITIONS: &str = "collections.json";

/// A file's key in [`POSITIONS`]: its canonical path, so `./a.toml` and `a.toml` agree.
fn position_key(file: &Path) -> String {
    std::fs::canonicalize(file)
        .unwrap_or_else(|_| file.to_path_buf())
        .display()
        .to_string()
}

fn positions(state: &Path) -> std::collections::BTreeMap<String, usize> {
    std::fs::read(state.join(POSITIONS))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// The 1-based index last played from `file`, if it was remembered.
pub fn last_index(state: &Path, file: &Path) -> Option<usize> {
    positions(state).get(&position_key(file)).copied()
}

/// Remembers that puzzle `index` (1-based) of `file` is being played. Only the holder of
/// the state folder's lock calls this.
pub fn remember_index(state: &Path, file: &Path, index: usize) -> std::io::Result<()> {
    let mut all = positions(state);
    all.insert(position_key(file), index);
    let bytes = serde_json::to_vec_pretty(&all).map_err(std::io::Error::other)?;
    super::save::write_atomic(&state.join(POSITIONS), &bytes)
}

/// The file in the state folder that remembers which puzzles of each collection were solved.
const SOLVED: &str = "collections-solved.json";

fn solved_all(
    state: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<usize>> {
    std::fs::read(state.join(SOLVED))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// The 1-based numbers of the puzzles of `file` solved so far.
pub fn solved_in(state: &Path, file: &Path) -> std::collections::BTreeSet<usize> {
    solved_all(state)
        .remove(&position_key(file))
        .unwrap_or_default()
}

/// Remembers that puzzle `index` (1-based) of `file` was solved. Only the holder of the
/// state folder's lock calls this.
pub fn remember_solved(state: &Path, file: &Path, index: usize) -> std::io::Result<()> {
    let mut all = solved_all(state);
    all.entry(position_key(file)).or_default().insert(index);
    let bytes = serde_json::to_vec_pretty(&all).map_err(std::io::Error::other)?;
    super::save::write_atomic(&state.join(SOLVED), &bytes)
}

/// Picks puzzle `index` (1-based) of a file's puzzles, else the remembered one (when still
/// in range), else the first. Gives the puzzle and its index, or a message naming the file.
pub fn choose(
    mut puzzles: Vec<Puzzle>,
    name: &str,
    index: Option<usize>,
    remembered: Option<usize>,
) -> Result<(Puzzle, usize), String> {
    let n = puzzles.len();
    if n == 0 {
        return Err(format!("{name}: no puzzles in the file"));
    }
    let i = match index {
        Some(i) if i == 0 || i > n => {
            let has = if n == 1 {
                "1 puzzle".into()
            } else {
                format!("{n} puzzles")
            };
            return Err(format!(
                "{name}: --index {i} is out of range (the file has {has})"
            ));
        }
        Some(i) => i,
        None => remembered.filter(|&r| (1..=n).contains(&r)).unwrap_or(1),
    };
    Ok((puzzles.swap_remove(i - 1), i))
}

/// Reads a TOML puzzle text (for tests and the built-ins).
pub fn from_toml(text: &str) -> Option<Puzzle> {
    parse_toml(text.as_bytes(), "<text>").ok()
}

#[cfg(test)]
mod folder_tests {
    use super::*;

    #[test]
    fn new_games_come_from_the_shipped_collections() {
        let dirs = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles")];
        for variant in [Variant::Killer, Variant::Jigsaw] {
            let found = find(&dirs, variant, 9, "easy");
            assert_eq!(found.len(), 30, "{variant}: the shipped easy collection");
            assert!(found.iter().all(|p| p.variant() == variant));
        }
    }

    #[cfg(unix)]
    #[test]
    #[allow(unsafe_code)] // mkfifo(3) to make the FIFO under test.
    fn fifos_and_huge_files_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("standard-easy.txt");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path only.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let huge = std::fs::File::create(dir.path().join("standard-hard.txt")).unwrap();
        huge.set_len(MAX_FILE_BYTES + 1).unwrap();
        std::fs::write(
            dir.path().join("z.toml"),
            "variant = \"standard\"\ndifficulty = \"easy\"\n",
        )
        .unwrap();
        // Opening the FIFO would block for ever: `find` must not.
        let found = find(&[dir.path().to_path_buf()], Variant::Standard, 9, "any");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].difficulty.as_deref(), Some("easy"));
    }
}

#[cfg(test)]
mod position_tests {
    use super::*;

    fn three() -> Vec<Puzzle> {
        embedded(Variant::Killer, 9, "easy")
            .into_iter()
            .take(3)
            .collect()
    }

    #[test]
    fn the_last_index_of_each_file_is_remembered() {
        let state = tempfile::tempdir().unwrap();
        let a = state.path().join("a.toml");
        let b = state.path().join("b.toml");
        std::fs::write(&a, "").unwrap();
        std::fs::write(&b, "").unwrap();
        assert_eq!(last_index(state.path(), &a), None);
        remember_index(state.path(), &a, 3).unwrap();
        remember_index(state.path(), &b, 2).unwrap();
        assert_eq!(last_index(state.path(), &a), Some(3));
        assert_eq!(last_index(state.path(), &b), Some(2));
        assert!(solved_in(state.path(), &a).is_empty());
        remember_solved(state.path(), &a, 3).unwrap();
        remember_solved(state.path(), &a, 1).unwrap();
        assert_eq!(
            solved_in(state.path(), &a).into_iter().collect::<Vec<_>>(),
            [1, 3]
        );
        assert!(solved_in(state.path(), &b).is_empty());
    }

    #[test]
    fn choose_takes_the_index_else_the_remembered_else_the_first() {
        let list = three();
        assert_eq!(
            choose(list.clone(), "f", Some(2), Some(3)).unwrap(),
            (list[1].clone(), 2)
        );
        assert_eq!(choose(list.clone(), "f", None, Some(3)).unwrap().1, 3);
        assert_eq!(choose(list.clone(), "f", None, Some(9)).unwrap().1, 1);
        assert_eq!(choose(list.clone(), "f", None, None).unwrap().1, 1);
        let e = choose(list, "f.toml", Some(4), None).unwrap_err();
        assert_eq!(
            e,
            "f.toml: --index 4 is out of range (the file has 3 puzzles)"
        );
    }
}

#[cfg(test)]
mod embedded_tests {
    use super::*;

    #[test]
    fn every_variant_and_level_has_built_in_puzzles() {
        for variant in Variant::ALL {
            for level in &DIFFICULTIES[1..] {
                let list = embedded(variant, 9, level);
                assert!(list.len() >= 30, "{variant} {level}: {}", list.len());
                assert!(list.iter().all(|p| p.variant() == variant));
            }
        }
    }
}

#[cfg(test)]
mod sized_tests {
    use super::*;
    use crate::generate::shipped::collections;
    use crate::generate::{Generator, Options};
    use crate::solver::exact;

    #[test]
    fn line_file_names_carry_variant_size_and_level() {
        assert_eq!(
            line_file_name("standard-16x16-hard"),
            Some((Variant::Standard, 16, "hard"))
        );
        assert_eq!(
            line_file_name("standard-easy"),
            Some((Variant::Standard, 9, "easy"))
        );
        assert_eq!(
            line_file_name("diagonal"),
            Some((Variant::Diagonal, 9, "any"))
        );
        assert_eq!(line_file_name("nonsense-easy"), None);
    }

    #[test]
    fn the_shipped_folder_keeps_sizes_apart() {
        let dirs = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles")];
        let nine = find(&dirs, Variant::Standard, 9, "any");
        assert!(nine.iter().all(|p| side(p) == 9), "9x9 games only");
        let big = find(&dirs, Variant::Standard, 16, "easy");
        assert_eq!(big.len(), 20);
        assert!(big.iter().all(|p| side(p) == 16));
        assert_eq!(sizes(Variant::Standard), vec![4, 6, 9, 16]);
        assert_eq!(sizes(Variant::Killer), vec![9]);
        assert_eq!(levels(Variant::Standard, 4), vec!["easy"]);
        assert_eq!(
            levels(Variant::Standard, 16),
            vec!["easy", "medium", "hard"]
        );
    }

    /// The header's command, e.g. `termdoku generate --variant standard --size 6
    /// --difficulty hard --count 20 --seed 20261201`, as (size, level, seed).
    fn header(text: &str) -> (usize, String, u64) {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("# generator: "))
            .expect("a generator line");
        let words: Vec<&str> = line.split_whitespace().collect();
        let arg = |name: &str| {
            let i = words.iter().position(|w| *w == name).expect(name);
            words[i + 1].to_string()
        };
        (
            arg("--size").parse().unwrap(),
            arg("--difficulty"),
            arg("--seed").parse().unwrap(),
        )
    }

    /// Every puzzle of the 4x4, 6x6 and 16x16 files parses and has one solution, and the
    /// command in a file's header makes its puzzles again (sampled: one of each file, the
    /// cheap levels).
    #[test]
    fn sized_collections_are_unique_and_reproduce_from_their_seed() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        for c in collections().iter().filter(|c| c.size != 9) {
            let puzzles = c.puzzles().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(puzzles.len(), 20, "{}", c.path);
            for (i, p) in puzzles.iter().enumerate() {
                assert_eq!(side(p), c.size, "{} #{}", c.path, i + 1);
                assert_eq!(exact::solve(p, 2).count, 1, "{} #{}", c.path, i + 1);
            }
            let text = std::fs::read_to_string(root.join(c.path)).unwrap();
            let (size, level, seed) = header(&text);
            assert_eq!(
                (size, level.as_str()),
                (c.size, c.level.name()),
                "{}",
                c.path
            );
            if c.level.name() != "easy" {
                continue;
            }
            let mut opts = Options::new(c.variant, c.level);
            opts.size = size;
            let generator = Generator::new(opts, seed).unwrap();
            let k = puzzles.len() - 1;
            let again = generator.generate(k as u64).unwrap().puzzle;
            assert_eq!(
                crate::format::write_line(&again),
                crate::format::write_line(&puzzles[k]),
                "{} #{}",
                c.path,
                k + 1
            );
        }
    }
}
