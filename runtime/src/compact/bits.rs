//! The bitboard of compact engines whose board has more than 128 cells: `W` words of 64 bits, bit
//! `i` of word `i / 64` for cell `64 * (i / 64) + i % 64`. It has the operations generated code uses
//! on the `u64` and `u128` bitboards of smaller boards (the bit operators, comparison with `0`, the
//! lowest and highest set bit, the number of set bits, removing the lowest one), so that the same
//! code serves both.

use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// The most words a wide bitboard has: 512 bits.
pub const MAX_WORDS: usize = 8;

/// A set of up to `64 * W` cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> Wide<W> {
    /// The empty set.
    pub const ZERO: Wide<W> = Wide([0; W]);
    /// The number of bits.
    pub const BITS: u32 = 64 * W as u32;
    /// Every bit.
    pub const MAX: Wide<W> = Wide([u64::MAX; W]);

    /// The set of one cell (empty when `cell` is beyond the last bit).
    #[inline]
    pub const fn bit(cell: usize) -> Wide<W> {
        let mut words = [0; W];
        if cell < 64 * W {
            words[cell / 64] = 1 << (cell % 64);
        }
        Wide(words)
    }

    /// The cells below `n` (all of them when `n` is at least [`Wide::BITS`]).
    pub const fn below(n: usize) -> Wide<W> {
        let mut words = [0; W];
        let mut i = 0;
        while i < W {
            words[i] = if n >= 64 * (i + 1) {
                u64::MAX
            } else if n > 64 * i {
                (1 << (n - 64 * i)) - 1
            } else {
                0
            };
            i += 1;
        }
        Wide(words)
    }

    /// Whether no bit is set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the cell's bit is set.
    #[inline]
    pub fn contains(self, cell: usize) -> bool {
        cell < 64 * W && self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    /// The index of the lowest set bit ([`Wide::BITS`] when none is).
    #[inline]
    pub fn trailing_zeros(self) -> u32 {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return 64 * i as u32 + w.trailing_zeros();
            }
        }
        Self::BITS
    }

    /// The number of clear bits above the highest set bit ([`Wide::BITS`] when none is set).
    #[inline]
    pub fn leading_zeros(self) -> u32 {
        for (i, &w) in self.0.iter().enumerate().rev() {
            if w != 0 {
                return 64 * (W - 1 - i) as u32 + w.leading_zeros();
            }
        }
        Self::BITS
    }

    /// The number of set bits.
    #[inline]
    pub fn count_ones(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The set without its lowest bit.
    #[inline]
    pub fn without_lowest(self) -> Wide<W> {
        let mut out = self;
        for w in out.0.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        out
    }

    /// The set cells, lowest first.
    pub fn cells(self) -> impl Iterator<Item = usize> {
        let mut rest = self;
        std::iter::from_fn(move || {
            if rest.is_empty() {
                None
            } else {
                let cell = rest.trailing_zeros() as usize;
                rest = rest.without_lowest();
                Some(cell)
            }
        })
    }
}

impl<const W: usize> Default for Wide<W> {
    fn default() -> Wide<W> {
        Wide::ZERO
    }
}

impl<const W: usize> std::fmt::Debug for Wide<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for w in self.0.iter().rev() {
            write!(f, "{w:016x}")?;
        }
        Ok(())
    }
}

impl<const W: usize> std::fmt::LowerHex for Wide<W> {
    /// The words from the highest, without leading zero words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// Comparison with an integer: `bits != 0` is a test for emptiness, as on integer bitboards.
impl<const W: usize> PartialEq<u64> for Wide<W> {
    #[inline]
    fn eq(&self, other: &u64) -> bool {
        W > 0 && self.0[0] == *other && self.0[1..].iter().all(|&w| w == 0)
    }
}

macro_rules! binary {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl<const W: usize> $trait for Wide<W> {
            type Output = Wide<W>;
            #[inline]
            fn $method(self, other: Wide<W>) -> Wide<W> {
                let mut out = self;
                for i in 0..W {
                    out.0[i] = self.0[i] $op other.0[i];
                }
                out
            }
        }
        impl<const W: usize> $assign for Wide<W> {
            #[inline]
            fn $assign_method(&mut self, other: Wide<W>) {
                for i in 0..W {
                    self.0[i] = self.0[i] $op other.0[i];
                }
            }
        }
    };
}

binary!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const W: usize> Not for Wide<W> {
    type Output = Wide<W>;
    #[inline]
    fn not(self) -> Wide<W> {
        let mut out = self;
        for w in out.0.iter_mut() {
            *w = !*w;
        }
        out
    }
}

/// Subtraction of a small integer, with borrow across the words (`cells & (cells - 1)` removes the
/// lowest bit, as on integers).
impl<const W: usize> Sub<u64> for Wide<W> {
    type Output = Wide<W>;
    #[inline]
    fn sub(self, other: u64) -> Wide<W> {
        let mut out = self;
        let mut borrow = other;
        for w in out.0.iter_mut() {
            let (value, under) = w.overflowing_sub(borrow);
            *w = value;
            if !under {
                break;
            }
            borrow = 1;
        }
        out
    }
}

impl<const W: usize> Shl<usize> for Wide<W> {
    type Output = Wide<W>;
    /// The bits moved up by `n` (the ones beyond the last bit are lost).
    fn shl(self, n: usize) -> Wide<W> {
        let mut out = Wide::ZERO;
        let (words, bits) = (n / 64, n % 64);
        for i in (words..W).rev() {
            let mut w = self.0[i - words] << bits;
            if bits > 0 && i > words {
                w |= self.0[i - words - 1] >> (64 - bits);
            }
            out.0[i] = w;
        }
        out
    }
}

impl<const W: usize> Shr<usize> for Wide<W> {
    type Output = Wide<W>;
    /// The bits moved down by `n`.
    fn shr(self, n: usize) -> Wide<W> {
        let mut out = Wide::ZERO;
        let (words, bits) = (n / 64, n % 64);
        for i in 0..W.saturating_sub(words) {
            let mut w = self.0[i + words] >> bits;
            if bits > 0 && i + words + 1 < W {
                w |= self.0[i + words + 1] << (64 - bits);
            }
            out.0[i] = w;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Wide;

    type B = Wide<4>;

    /// The same operations on a `u128` and on the low half of a wide set agree.
    #[test]
    fn agrees_with_integers() {
        let samples: [u128; 6] = [
            0,
            1,
            1 << 127,
            0x8000_0000_0000_0001,
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
            u128::MAX,
        ];
        let wide = |x: u128| Wide::<4>([x as u64, (x >> 64) as u64, 0, 0]);
        for &a in &samples {
            let w = wide(a);
            assert_eq!(w.count_ones(), a.count_ones());
            assert_eq!(
                w.trailing_zeros(),
                if a == 0 { 256 } else { a.trailing_zeros() }
            );
            assert_eq!(w.leading_zeros(), 128 + a.leading_zeros());
            assert_eq!(w == 0, a == 0);
            if a != 0 {
                assert_eq!(w & (w - 1), wide(a & (a - 1)));
                assert_eq!(w.without_lowest(), wide(a & (a - 1)));
            }
            for &b in &samples {
                assert_eq!(w & wide(b), wide(a & b));
                assert_eq!(w | wide(b), wide(a | b));
                assert_eq!(w ^ wide(b), wide(a ^ b));
            }
            for n in [0, 1, 17, 63, 64, 65, 127] {
                assert_eq!(w >> n, wide(a >> n));
            }
            assert_eq!(!w & B::below(128), wide(!a));
        }
    }

    #[test]
    fn bits_across_words() {
        for cell in [0, 63, 64, 130, 255] {
            let b = B::bit(cell);
            assert_eq!(b.count_ones(), 1);
            assert_eq!(b.trailing_zeros() as usize, cell);
            assert_eq!((B::BITS - 1 - b.leading_zeros()) as usize, cell);
            assert!(b.contains(cell) && !b.contains(cell ^ 1));
            assert_eq!(B::bit(0) << cell, b);
            assert_eq!(b >> cell, B::bit(0));
        }
        assert_eq!(B::bit(256), B::ZERO);
        let set = B::bit(3) | B::bit(64) | B::bit(200);
        assert_eq!(set.cells().collect::<Vec<_>>(), vec![3, 64, 200]);
        assert_eq!(B::bit(128) - 1, B::below(128));
        assert_eq!(B::below(256), B::MAX);
        assert_eq!(B::below(0), 0);
        assert_eq!(!B::ZERO, B::MAX);
    }
}
