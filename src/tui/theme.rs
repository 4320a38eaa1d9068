//! Styles per role, from `[theme]`; `NO_COLOR` keeps modifiers and drops colours.

use super::config::ThemeConfig;
use crate::solver::logic::Role;
use ratatui::style::{Color, Modifier, Style};

const COLOURS: &[(&str, Color)] = &[
    ("default", Color::Reset),
    ("black", Color::Black),
    ("red", Color::Red),
    ("green", Color::Green),
    ("yellow", Color::Yellow),
    ("blue", Color::Blue),
    ("magenta", Color::Magenta),
    ("cyan", Color::Cyan),
    ("gray", Color::Gray),
    ("dark-gray", Color::DarkGray),
    ("light-red", Color::LightRed),
    ("light-green", Color::LightGreen),
    ("light-yellow", Color::LightYellow),
    ("light-blue", Color::LightBlue),
    ("light-magenta", Color::LightMagenta),
    ("light-cyan", Color::LightCyan),
    ("white", Color::White),
];

const MODIFIERS: &[(&str, Modifier)] = &[
    ("bold", Modifier::BOLD),
    ("dim", Modifier::DIM),
    ("italic", Modifier::ITALIC),
    ("underlined", Modifier::UNDERLINED),
    ("reversed", Modifier::REVERSED),
    ("crossed-out", Modifier::CROSSED_OUT),
];

/// Parses `black on cyan bold`. The error names the word that was not understood.
pub fn parse_style(s: &str) -> Result<Style, String> {
    let mut style = Style::default();
    let mut words = s.split_whitespace();
    while let Some(w) = words.next() {
        let lw = w.to_ascii_lowercase();
        if lw == "on" {
            let c = words
                .next()
                .ok_or_else(|| format!("`on` in style `{s}` needs a colour after it"))?;
            style = style.bg(colour(c).ok_or_else(|| unknown(c, s))?);
        } else if let Some(c) = colour(&lw) {
            style = style.fg(c);
        } else if let Some(&(_, m)) = MODIFIERS.iter().find(|(n, _)| *n == lw) {
            style = style.add_modifier(m);
        } else {
            return Err(unknown(w, s));
        }
    }
    Ok(style)
}

fn unknown(word: &str, s: &str) -> String {
    format!(
        "unknown colour or modifier `{word}` in style `{s}` (colours: {}; modifiers: {})",
        COLOURS.iter().map(|c| c.0).collect::<Vec<_>>().join(" "),
        MODIFIERS.iter().map(|c| c.0).collect::<Vec<_>>().join(" ")
    )
}

fn colour(name: &str) -> Option<Color> {
    let lower = name.to_ascii_lowercase();
    COLOURS.iter().find(|(n, _)| *n == lower).map(|&(_, c)| c)
}

/// Resolved styles.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub given: Style,
    pub entry: Style,
    pub candidate: Style,
    pub cursor: Style,
    pub same_digit: Style,
    pub house: Style,
    pub conflict: Style,
    pub wrong: Style,
    pub grid: Style,
    pub box_border: Style,
    pub cage: Style,
    pub diagonal: Style,
    pub line: Style,
    pub shade: Style,
    pub title: Style,
    pub message: Style,
    pub error: Style,
    roles: [Style; 10],
}

impl Theme {
    /// Builds the theme; with `no_color`, colours are dropped and modifiers kept, and each
    /// state that colour alone told apart gets modifiers of its own (see [`without_colour`]).
    pub fn new(cfg: &ThemeConfig, no_color: bool) -> Theme {
        let theme = Theme::build(cfg, no_color);
        if no_color {
            without_colour(theme)
        } else {
            theme
        }
    }

    fn build(cfg: &ThemeConfig, no_color: bool) -> Theme {
        let st = |spec: &super::config::StyleSpec| {
            let s = parse_style(&spec.0).unwrap_or_default();
            if no_color {
                Style {
                    fg: None,
                    bg: None,
                    ..s
                }
            } else {
                s
            }
        };
        Theme {
            given: st(&cfg.given),
            entry: st(&cfg.entry),
            candidate: st(&cfg.candidate),
            cursor: st(&cfg.cursor),
            same_digit: st(&cfg.same_digit),
            house: st(&cfg.house),
            conflict: st(&cfg.conflict),
            wrong: st(&cfg.wrong),
            grid: st(&cfg.grid),
            box_border: st(&cfg.box_border),
            cage: st(&cfg.cage),
            diagonal: st(&cfg.diagonal),
            line: st(&cfg.line),
            shade: st(&cfg.shade),
            title: st(&cfg.title),
            message: st(&cfg.message),
            error: st(&cfg.error),
            roles: [
                st(&cfg.defining),
                st(&cfg.base),
                st(&cfg.cover),
                st(&cfg.fin),
                st(&cfg.pivot),
                st(&cfg.pincer),
                st(&cfg.color_a),
                st(&cfg.color_b),
                st(&cfg.placement),
                st(&cfg.elimination),
            ],
        }
    }

    /// The style of a hint role.
    pub fn role(&self, role: Role) -> Style {
        let i = match role {
            Role::Defining => 0,
            Role::Base => 1,
            Role::Cover => 2,
            Role::Fin => 3,
            Role::Pivot => 4,
            Role::Pincer => 5,
            Role::ColorA => 6,
            Role::ColorB => 7,
            Role::Placement => 8,
            Role::Elimination => 9,
        };
        self.roles[i]
    }
}

/// Modifiers that keep states apart without colour: a given is bold and an entry plain, a
/// pencil mark dim, a conflict underlined, the selection reversed (with brackets), a wrong
/// entry reversed and crossed out (with `!`), and each hint role its own combination.
fn without_colour(mut t: Theme) -> Theme {
    let m = |s: Style, m: Modifier| s.add_modifier(m);
    t.candidate = m(t.candidate, Modifier::DIM);
    t.conflict = m(t.conflict, Modifier::UNDERLINED | Modifier::BOLD);
    t.wrong = Style::default().add_modifier(Modifier::REVERSED | Modifier::CROSSED_OUT);
    t.cursor = m(t.cursor, Modifier::REVERSED);
    // Not underlined: that is how a conflict reads.
    t.same_digit = m(t.same_digit, Modifier::ITALIC);
    t.line = m(t.line, Modifier::BOLD);
    let roles = [
        Modifier::UNDERLINED,                                       // defining
        Modifier::ITALIC | Modifier::UNDERLINED,                    // base
        Modifier::ITALIC,                                           // cover
        Modifier::DIM | Modifier::UNDERLINED,                       // fin
        Modifier::BOLD | Modifier::ITALIC,                          // pivot
        Modifier::REVERSED | Modifier::UNDERLINED,                  // pincer
        Modifier::BOLD | Modifier::REVERSED,                        // colour A
        Modifier::REVERSED | Modifier::ITALIC,                      // colour B
        Modifier::REVERSED | Modifier::BOLD | Modifier::UNDERLINED, // placement
        Modifier::CROSSED_OUT | Modifier::DIM,                      // elimination
    ];
    for (s, extra) in t.roles.iter_mut().zip(roles) {
        *s = Style::default().add_modifier(extra);
    }
    t
}

/// True when the `NO_COLOR` convention asks for no colour (set and not empty).
pub fn no_color_requested() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// True when the locale says UTF-8 (`LC_ALL`, then `LC_CTYPE`, then `LANG`).
pub fn locale_is_utf8() -> bool {
    for var in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            let v = v.to_string_lossy().to_ascii_lowercase();
            return v.contains("utf-8") || v.contains("utf8");
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_parse_and_no_color_keeps_modifiers() {
        let s = parse_style("black on cyan bold").unwrap();
        assert_eq!(s.fg, Some(Color::Black));
        assert_eq!(s.bg, Some(Color::Cyan));
        assert!(parse_style("blod").unwrap_err().contains("`blod`"));
        let t = Theme::new(&ThemeConfig::default(), true);
        assert_eq!(t.cursor.fg, None);
        assert!(t.cursor.add_modifier.contains(Modifier::REVERSED));
        assert_eq!(t.same_digit.bg, None);
    }

    #[test]
    fn without_colour_every_state_has_its_own_modifiers() {
        let t = Theme::new(&ThemeConfig::default(), true);
        let mut seen = vec![
            ("given", t.given.add_modifier),
            ("entry", t.entry.add_modifier),
            ("candidate", t.candidate.add_modifier),
            ("conflict", t.conflict.add_modifier),
            ("wrong", t.wrong.add_modifier),
            ("cursor", t.cursor.add_modifier),
        ];
        for (i, r) in t.roles.iter().enumerate() {
            seen.push((["role"; 10][i], r.add_modifier));
        }
        for (i, a) in seen.iter().enumerate() {
            assert!(a.1.bits() != 0 || a.0 == "entry", "{} has no modifier", a.0);
            for b in &seen[i + 1..] {
                assert_ne!(a.1, b.1, "{} and {} look the same", a.0, b.0);
            }
        }
    }
}
