//! A set of digits as a bitmask: bit `d - 1` stands for digit `d` (1..=16).

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Digits(pub u16);

impl Digits {
    pub const EMPTY: Digits = Digits(0);

    /// Digits `1..=n`.
    pub fn all(n: u8) -> Digits {
        Digits(((1u32 << n) - 1) as u16)
    }

    pub fn single(d: u8) -> Digits {
        debug_assert!((1..=16).contains(&d));
        Digits(1 << (d - 1))
    }

    /// Digits `lo..=hi` (empty when `lo > hi`).
    pub fn range(lo: u8, hi: u8) -> Digits {
        if lo > hi || lo == 0 {
            return Digits::EMPTY;
        }
        Digits((((1u32 << hi) - 1) & !((1u32 << (lo - 1)) - 1)) as u16)
    }

    pub fn contains(self, d: u8) -> bool {
        (1..=16).contains(&d) && self.0 & (1 << (d - 1)) != 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest digit, if any.
    pub fn first(self) -> Option<u8> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }

    /// The highest digit, if any.
    pub fn last(self) -> Option<u8> {
        (self.0 != 0).then(|| 16 - self.0.leading_zeros() as u8)
    }

    /// The only digit, if the set holds exactly one.
    pub fn single_digit(self) -> Option<u8> {
        (self.0.count_ones() == 1).then(|| self.0.trailing_zeros() as u8 + 1)
    }

    pub fn insert(&mut self, d: u8) {
        self.0 |= 1 << (d - 1);
    }

    pub fn remove(&mut self, d: u8) {
        self.0 &= !(1 << (d - 1));
    }

    pub fn union(self, o: Digits) -> Digits {
        Digits(self.0 | o.0)
    }

    pub fn intersect(self, o: Digits) -> Digits {
        Digits(self.0 & o.0)
    }

    pub fn without(self, o: Digits) -> Digits {
        Digits(self.0 & !o.0)
    }

    pub fn is_subset(self, o: Digits) -> bool {
        self.0 & !o.0 == 0
    }

    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }

    /// Sum of the digits in the set.
    pub fn sum(self) -> u32 {
        self.iter().map(u32::from).sum()
    }
}

impl std::ops::BitOr for Digits {
    type Output = Digits;
    fn bitor(self, o: Digits) -> Digits {
        self.union(o)
    }
}

impl std::ops::BitAnd for Digits {
    type Output = Digits;
    fn bitand(self, o: Digits) -> Digits {
        self.intersect(o)
    }
}

impl std::ops::BitOrAssign for Digits {
    fn bitor_assign(&mut self, o: Digits) {
        self.0 |= o.0;
    }
}

impl std::ops::BitAndAssign for Digits {
    fn bitand_assign(&mut self, o: Digits) {
        self.0 &= o.0;
    }
}

impl FromIterator<u8> for Digits {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut s = Digits::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}

pub struct DigitIter(u16);

impl Iterator for DigitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as u8 + 1;
        self.0 &= self.0 - 1;
        Some(d)
    }
}

/// The character for a digit: 1-9, then A-G for 10-16.
pub fn digit_char(d: u8) -> char {
    match d {
        1..=9 => (b'0' + d) as char,
        10..=16 => (b'A' + d - 10) as char,
        _ => '.',
    }
}

/// The digit a character stands for (1-9, A-G or a-g), if any.
pub fn char_digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='G' => Some(c as u8 - b'A' + 10),
        'a'..='g' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, d) in self.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{d}")?;
        }
        write!(f, "}}")
    }
}

impl fmt::Display for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_iteration() {
        assert_eq!(
            Digits::range(3, 5).iter().collect::<Vec<_>>(),
            vec![3, 4, 5]
        );
        assert_eq!(Digits::all(9).len(), 9);
        assert_eq!(Digits::all(16).len(), 16);
        assert!(Digits::range(5, 3).is_empty());
        let s: Digits = [2, 7].into_iter().collect();
        assert_eq!(s.first(), Some(2));
        assert_eq!(s.last(), Some(7));
        assert_eq!(s.single_digit(), None);
        assert_eq!(format!("{s}"), "{2,7}");
        assert_eq!(s.sum(), 9);
    }

    #[test]
    fn digit_chars_round_trip() {
        for d in 1..=16 {
            assert_eq!(char_digit(digit_char(d)), Some(d));
        }
        assert_eq!(char_digit('.'), None);
        assert_eq!(char_digit('0'), None);
    }
}
