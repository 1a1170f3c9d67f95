//! Counts as a person writes them: "1 node", "2 nodes", "0 nodes". Every count the
//! editor and the command line put in a sentence goes through [`counted`].

/// `n` and the noun, plural unless `n` is one (every noun the editor counts takes an
/// "s").
#[must_use]
pub fn counted<N: std::fmt::Display + PartialEq + From<u8> + Copy>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "node"), "1 node");
        assert_eq!(counted(0, "node"), "0 nodes");
        assert_eq!(counted(26_u64, "strand layer"), "26 strand layers");
    }
}
